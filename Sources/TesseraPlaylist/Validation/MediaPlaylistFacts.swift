/// What the version and key rules need of a media playlist's segments (RFC 8216bis §8),
/// gathered in the validator's one pass over them.
struct MediaPlaylistFacts {
    /// Every EXT-X-KEY once, segments' and maps', in order of first use.
    private(set) var keys: [SegmentKey] = []
    /// The line of the first segment whose EXTINF has a decimal point.
    private(set) var firstDecimalDuration: SourceLine?
    /// The line of the first segment with a byte range.
    private(set) var firstByteRange: SourceLine?
    /// The line of the first EXT-X-MAP in force.
    private(set) var firstMap: SourceLine?
    /// The first segment's first partial segment.
    private(set) var firstPart: PartialSegment?
    private var seenKeyLines = Set<Int>()

    /// A segment's own fields (read by the caller one by one: a segment passed whole is copied,
    /// with a retain and a release of each of its references).
    mutating func note(hasDecimalPoint: @autoclosure () -> Bool, hasByteRange: Bool, line: SourceLine) {
        if firstDecimalDuration == nil, hasDecimalPoint() { firstDecimalDuration = line }
        if firstByteRange == nil, hasByteRange { firstByteRange = line }
    }

    /// The keys and map a run of segments stands under, and their parts (once per run: runs
    /// share one box, and a box with parts is one segment's).
    mutating func note(_ extras: SegmentExtras) {
        if firstPart == nil, let part = extras.parts.first { firstPart = part }
        for key in extras.keys where seenKeyLines.insert(key.line.number).inserted { keys.append(key) }
        guard let box = extras.mapBox else { return }
        if firstMap == nil { firstMap = box.value.line }
        for key in box.value.keys where seenKeyLines.insert(key.line.number).inserted { keys.append(key) }
    }
}
