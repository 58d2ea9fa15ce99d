import TesseraPlaylist

/// The Date Ranges a recording keeps: every range the live playlist showed (the latest version
/// of each ID — a range may gain its END-DATE later), of which the recording keeps those wholly
/// inside what it recorded: a START-DATE at or after the recording's first PROGRAM-DATE-TIME,
/// and an end (END-DATE, or START-DATE + DURATION) at or before its last one's end. A planned
/// duration only is kept as planned; END-ON-NEXT only when a later kept range of its CLASS ends
/// it. Anything else would be kept half-true — cut off, or claiming media that is not there — so
/// it is omitted whole and counted. At most `maximum` IDs are held (more are counted as
/// omitted). A pure value.
struct RecordingDateRanges: Sendable {
    /// The most ranges held.
    static let maximum = 100_000
    private var byID: [String: DateRange] = [:]
    private var order: [String] = []
    private var overflow: Set<String> = []

    /// Records the ranges `playlist` lists.
    mutating func observe(_ playlist: MediaPlaylist) {
        for range in playlist.dateRanges {
            if byID[range.id] != nil || order.count < Self.maximum {
                if byID.updateValue(range, forKey: range.id) == nil { order.append(range.id) }
            } else if overflow.count < Self.maximum {
                overflow.insert(range.id)
            }
        }
    }

    /// The ranges to keep for media from `start` to `end` (seconds since 1970; nil when the
    /// recording has no PROGRAM-DATE-TIME, which keeps none), and how many were omitted.
    func kept(from start: Double?, to end: Double?) -> (ranges: [DateRange], omitted: Int) {
        let all = order.compactMap { byID[$0] }
        guard let start, let end else { return ([], all.count + overflow.count) }
        var inside = all.filter { range in
            guard let begin = range.startDate?.secondsSince1970, begin >= start, begin <= end else { return false }
            if let stop = range.endDate?.secondsSince1970 ?? range.duration.map({ begin + $0 }) { return stop <= end }
            return true
        }
        // END-ON-NEXT: ended by the next range of its CLASS, which must be kept too.
        inside = inside.filter { range in
            guard range.endsOnNext, let begin = range.startDate?.secondsSince1970 else { return true }
            return inside.contains { other in
                other.id != range.id && other.dateRangeClass == range.dateRangeClass && (other.startDate?.secondsSince1970 ?? 0) > begin
            }
        }
        return (inside, all.count - inside.count + overflow.count)
    }
}
