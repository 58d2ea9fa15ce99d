/// What a pass over a media playlist's segments adds up to: counts, the duration, dates and
/// encryption methods — computed in place (no segment is copied out), for summaries and for the
/// facts a presentation graph keeps of each playlist.
public struct SegmentTotals: Hashable, Sendable {
    /// The number of segments.
    public var count = 0
    /// The sum of their EXTINF durations, seconds.
    public var duration = 0.0
    /// Segments with an EXT-X-PROGRAM-DATE-TIME.
    public var datedCount = 0
    /// The first segment's date, seconds since 1970, derived from the first dated segment and the
    /// durations before it.
    public var firstDate: Double?
    /// Segments after an EXT-X-DISCONTINUITY.
    public var discontinuityCount = 0
    /// Segments marked EXT-X-GAP.
    public var gapCount = 0
    /// The longest EXTINF duration, seconds (0 without segments).
    public var longestDuration = 0.0
    /// The METHOD of the first key in force over the segments, in order of first use (`.none`
    /// for segments in the clear).
    public var encryptionMethods: [EncryptionMethod] = []
    /// Every kind of key (METHOD and KEYFORMAT) in force over the segments, in order of first use.
    public var keyKinds: [SegmentKeyKind] = []
    /// Segments under an EXT-X-MAP.
    public var mappedCount = 0
    /// The partial segments of the segments (not counting the parts after the last one).
    public var partCount = 0

    /// The totals of `segments`.
    public init(_ segments: MediaSegments) {
        count = segments.count
        var previousBox: UInt32?   // a run of segments shares one box: it is looked at once
        var boxHasMap = false, boxParts = 0
        segments.packed.withUnsafeBufferPointer { packed in
            for record in packed {
                if record.hasDate {
                    datedCount += 1
                    if firstDate == nil, let seconds = segments.programDateTime(of: record)?.secondsSince1970 { firstDate = seconds - duration }
                }
                duration += record.duration
                if record.duration > longestDuration { longestDuration = record.duration }
                if record.isDiscontinuity { discontinuityCount += 1 }
                if record.isGap { gapCount += 1 }
                if record.extras != previousBox {
                    previousBox = record.extras
                    let extras = segments.extras(of: record)?.value
                    boxHasMap = extras?.mapBox != nil
                    boxParts = extras?.parts.count ?? 0
                    let method = extras?.keys.first?.method ?? .none
                    if encryptionMethods.last != method, !encryptionMethods.contains(method) { encryptionMethods.append(method) }
                    for key in extras?.keys ?? [] where !keyKinds.contains(SegmentKeyKind(key)) { keyKinds.append(SegmentKeyKind(key)) }
                }
                if boxHasMap { mappedCount += 1 }
                partCount += boxParts
            }
        }
    }
}

extension MediaPlaylist {
    /// The totals of the segments (one pass, in place).
    public var segmentTotals: SegmentTotals { SegmentTotals(segments) }
}
