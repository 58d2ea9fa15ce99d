import TesseraPlaylist

/// Merges a Playlist Delta Update (a playlist with EXT-X-SKIP, §6.2.5.1, §6.3.7) into the copy a
/// client holds, only when the merge can be proven: the held copy has every skipped segment
/// (contiguous media sequence numbers), the skipped run starts at the delta's
/// EXT-X-DISCONTINUITY-SEQUENCE, and every segment both list has the same URI (query stripped)
/// and discontinuity. The skipped segments come from the held copy with their keys, maps and
/// PROGRAM-DATE-TIME; the listed ones get the keys and map in force from history until a tag of
/// their own replaces them (the delta skipped the tags that set them), their discontinuity
/// sequence counted on from history, and — those without a PROGRAM-DATE-TIME of their own — the
/// date history carries onto them (the last dated segment's plus the durations since), up to the
/// first EXT-X-DISCONTINUITY without one (where a date may jump, so none is made up). Date Ranges: the held ones, minus
/// RECENTLY-REMOVED-DATERANGES and those the delta lists again, then the delta's. A merge that
/// cannot be proven is a `Refusal`: the caller reloads once without `_HLS_skip`. Pure.
///
/// One case cannot be told apart: an `EXT-X-KEY:METHOD=NONE` the delta lists before any other key
/// tag looks like no tag at all, so the key from history is carried over it.
public enum DeltaMerge {
    /// Why a delta update cannot be merged.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// One sentence.
        public let reason: String
        public var description: String { reason }
    }

    /// `delta` merged into `held`; a playlist without EXT-X-SKIP is returned as it is.
    public static func merge(_ delta: MediaPlaylist, into held: MediaPlaylist) -> Result<MediaPlaylist, Refusal> {
        guard let skip = delta.skip, skip.skippedSegments > 0 else { return .success(delta) }
        let first = delta.mediaSequence
        let (firstListed, overflow) = first.addingReportingOverflow(skip.skippedSegments)
        guard !overflow else { return .failure(Refusal(reason: "EXT-X-SKIP runs past 2^64 media sequence numbers.")) }
        guard let start = held.segments.firstIndex(where: { $0.mediaSequence == first }) else {
            return .failure(Refusal(reason: "The held playlist has no segment \(first), the first one the delta skips."))
        }
        let end = start + Int(clamping: skip.skippedSegments)
        guard end <= held.segments.count, held.segments[end - 1].mediaSequence == firstListed - 1 else {
            return .failure(Refusal(reason: "The held playlist does not have every skipped segment, \(first) to \(firstListed - 1)."))
        }
        // A slice, not a copy: a day-long EVENT playlist's history is copied once, into the result.
        let history = held.segments[start..<end]
        guard history[start].discontinuitySequence == delta.discontinuitySequence else {
            return .failure(Refusal(reason: "The delta's discontinuity sequence \(delta.discontinuitySequence) is not the held \(history[start].discontinuitySequence) of segment \(first)."))
        }
        // The parser counted the listed segments' discontinuities from the delta's sequence, not
        // seeing the skipped ones: count on from the last skipped segment instead.
        let last = history[end - 1]
        let offset = last.discontinuitySequence &- delta.discontinuitySequence
        var listed = delta.segments
        var carriesKeys = true, carriesMap = true
        for index in listed.indices {
            listed[index].discontinuitySequence &+= offset
            if !listed[index].keys.isEmpty { carriesKeys = false }
            if listed[index].map != nil { carriesMap = false }
            if carriesKeys { listed[index].keys = last.keys }
            if carriesMap { listed[index].map = last.map }
        }
        let heldBySequence = Dictionary(held.segments[end...].map { ($0.mediaSequence, $0) }, uniquingKeysWith: { first, _ in first })
        for segment in listed {
            guard let known = heldBySequence[segment.mediaSequence] else { continue }
            guard stripped(known.uri) == stripped(segment.uri) else {
                return .failure(Refusal(reason: "Segment \(segment.mediaSequence) has another URI in the delta than in the held playlist."))
            }
            guard known.discontinuitySequence == segment.discontinuitySequence else {
                return .failure(Refusal(reason: "Segment \(segment.mediaSequence) has another discontinuity sequence in the delta than in the held playlist."))
            }
        }
        carryDates(from: held.segments[..<end], onto: &listed)
        var merged = delta
        merged.skip = nil
        var segments = MediaSegments()
        segments.reserveCapacity(history.count + listed.count)
        segments.append(contentsOf: history)
        segments.append(contentsOf: listed)
        merged.segments = segments
        let removed = Set(skip.recentlyRemovedDateRanges ?? [])
        let relisted = Set(delta.dateRanges.map(\.id))
        merged.dateRanges = held.dateRanges.filter { !removed.contains($0.id) && !relisted.contains($0.id) } + delta.dateRanges
        return .success(merged)
    }

    /// Gives each of `listed` without a PROGRAM-DATE-TIME the date `history` (the segments before
    /// them) carries on: the last dated segment's date plus the durations since, until a
    /// discontinuity without a date of its own.
    /// - Complexity: O(history after its last dated segment + listed).
    static func carryDates(from history: Slice<MediaSegments>, onto listed: inout MediaSegments) {
        guard let dated = history.lastIndex(where: { $0.programDateTime?.secondsSince1970 != nil }) else { return }
        var clock = history[dated].programDateTime!.secondsSince1970!
        for segment in history[dated...] {
            if segment.isDiscontinuity, segment.programDateTime == nil { return }
            clock += segment.duration
        }
        for index in listed.indices {
            if let date = listed[index].programDateTime?.secondsSince1970 {
                clock = date
            } else if listed[index].isDiscontinuity {
                return
            } else {
                listed[index].programDateTime = ProgramDateTime(secondsSince1970: clock)
            }
            clock += listed[index].duration
        }
    }

    /// A URI without its query and fragment (signed query values change from reload to reload).
    static func stripped(_ uri: String) -> Substring { uri.prefix { $0 != "?" && $0 != "#" } }
}
