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

    /// The totals of `segments`.
    public init(_ segments: MediaSegments) {
        count = segments.count
        var previousBox: UInt32?   // a run of segments shares one box: its method is looked up once
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
                guard record.extras != previousBox else { continue }
                previousBox = record.extras
                let method = segments.extras(of: record)?.value.keys.first?.method ?? .none
                if encryptionMethods.last != method, !encryptionMethods.contains(method) { encryptionMethods.append(method) }
            }
        }
    }
}

extension MediaPlaylist {
    /// The totals of the segments (one pass, in place).
    public var segmentTotals: SegmentTotals { SegmentTotals(segments) }
}
