/// Segment tags read since the last URI line, waiting for the URI that closes the segment.
///
/// Cleared after every segment, so the common case is cheap: a segment with only plain values
/// (duration, range, flags, a date) clears them in place; the references few segments carry
/// (a title, an unplain EXTINF text, parts, unknown tags) are counted by `ownsReferences` and
/// dropped with the whole value only when there are any.
struct PendingSegment {
    var duration: Duration?
    /// The EXTINF text, kept only when it is not a plain decimal (`Duration.places` is nil).
    var durationText: String? { didSet { ownsReferences = true } }
    /// The EXTINF title, if any.
    var title: String? { didSet { ownsReferences = true } }
    var range: (length: UInt64, offset: UInt64?, line: Int)?
    var isDiscontinuity = false
    var isGap = false
    var programDateTime: ProgramDateTime?
    var parts: [PartialSegment] = [] { didSet { ownsReferences = true } }
    var lastPartRange: (uri: String, end: UInt64)? { didSet { ownsReferences = true } }
    var unknownTags: [UnknownTag] = [] { didSet { ownsReferences = true } }
    /// True once any per-segment tag was read.
    var hasSegmentTags = false
    /// True once a title, text, part or unknown tag was kept.
    private(set) var ownsReferences = false

    /// An EXTINF: its value, and the places of its text when the text is plain.
    struct Duration {
        var value: Double
        var places: UInt8?
    }

    /// Back to no tags, for the next segment.
    mutating func clear() {
        if ownsReferences {
            self = PendingSegment()
            return
        }
        duration = nil
        range = nil
        isDiscontinuity = false
        isGap = false
        if programDateTime != nil { programDateTime = nil }
        hasSegmentTags = false
    }
}
