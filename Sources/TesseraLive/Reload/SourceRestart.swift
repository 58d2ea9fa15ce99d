import TesseraPlaylist

/// Whether a live playlist that goes back is its source started again (an encoder restarted in
/// place, a stream replaced) rather than an older copy of the same stream (a cache behind the
/// origin). A restarted source numbers its media and discontinuity sequences again, often from
/// zero, and often reuses segment names; an older copy lists what the stream listed before.
/// Pure.
public enum SourceRestart {
    /// Seconds two PROGRAM-DATE-TIMEs of one segment may differ by (the spec tolerates sub-second
    /// drift, §6.2.1).
    static let dateTolerance = 1.0

    /// Why `playlist`, whose edge is behind `held`'s, shows that the source restarted — nil when
    /// it may be an older copy of the same stream:
    /// - its newest segment is dated after the held copy's newest (newer media under older numbers);
    /// - it lists a segment the held copy lists too with another URI, discontinuity sequence,
    ///   PROGRAM-DATE-TIME or duration;
    /// - it ends before the held copy begins (no cache lags a whole window behind);
    /// - it starts no earlier than the held copy but in an earlier discontinuity domain (§6.2.2:
    ///   the discontinuity sequence never decreases).
    /// - Complexity: O(segments of both).
    public static func evidence(_ playlist: MediaPlaylist, behind held: MediaPlaylist) -> String? {
        guard let last = playlist.segments.last, let heldLast = held.segments.last, let heldFirst = held.segments.first else { return nil }
        if let date = newestDate(playlist), let heldDate = newestDate(held), date > heldDate + dateTolerance {
            return "its newest segment (\(last.mediaSequence)) is dated after the last one listed before (\(heldLast.mediaSequence)) under an older number"
        }
        let listed = Dictionary(held.segments.map { ($0.mediaSequence, $0) }, uniquingKeysWith: { first, _ in first })
        for segment in playlist.segments {
            guard let before = listed[segment.mediaSequence], let difference = difference(segment, before) else { continue }
            return "segment \(segment.mediaSequence) is listed with \(difference) than before"
        }
        if last.mediaSequence < heldFirst.mediaSequence {
            return "its media sequence went back from \(heldLast.mediaSequence) to \(last.mediaSequence), behind the whole window listed before"
        }
        // An older copy that starts no earlier cannot start in an earlier discontinuity domain.
        if let first = playlist.segments.first, first.mediaSequence >= heldFirst.mediaSequence,
           first.discontinuitySequence < heldFirst.discontinuitySequence {
            return "its discontinuity sequence went back from \(heldFirst.discontinuitySequence) to \(first.discontinuitySequence)"
        }
        return nil
    }

    /// What tells `segment` from `listed`, the segment of the same media sequence listed before
    /// ("another URI"), or nil when nothing does.
    public static func difference(_ segment: MediaSegment, _ listed: MediaSegment) -> String? {
        if DeltaMerge.stripped(segment.uri) != DeltaMerge.stripped(listed.uri) { return "another URI" }
        return contentDifference(segment, listed)
    }

    /// As `difference(_:_:)`, the URIs aside: another discontinuity sequence, PROGRAM-DATE-TIME
    /// (by a second or more) or duration.
    public static func contentDifference(_ segment: MediaSegment, _ listed: MediaSegment) -> String? {
        if segment.discontinuitySequence != listed.discontinuitySequence { return "another discontinuity sequence" }
        if let date = segment.programDateTime?.secondsSince1970, let before = listed.programDateTime?.secondsSince1970,
           abs(date - before) >= dateTolerance {
            return "another PROGRAM-DATE-TIME"
        }
        if abs(segment.duration - listed.duration) > 0.001 { return "another duration" }
        return nil
    }

    /// The PROGRAM-DATE-TIME at which `playlist`'s newest segment starts, from its last dated
    /// segment and the durations after it (seconds since 1970).
    static func newestDate(_ playlist: MediaPlaylist) -> Double? {
        var elapsed = 0.0
        for (index, segment) in playlist.segments.enumerated().reversed() {
            if let date = segment.programDateTime?.secondsSince1970 { return date + elapsed }
            if index > 0 { elapsed += playlist.segments[index - 1].duration }
        }
        return nil
    }
}
