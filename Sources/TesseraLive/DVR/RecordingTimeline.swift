#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// What a recording holds, in media-sequence order, and what each new snapshot of the live
/// playlist adds to it — a pure value. Every media sequence number from the first taken on is
/// accounted for exactly once: a segment to fetch, an EXT-X-GAP of the origin (kept, never
/// fetched), or media that left the window before it could be fetched (a gap of the recorder,
/// its duration estimated from PROGRAM-DATE-TIME, else the target duration). A segment listed
/// again must be the one taken (same URI without its query, same discontinuity sequence), else
/// the source changed under the recording. It stops taking once `limit` seconds of media (gaps
/// included) are in.
struct RecordingTimeline: Sendable {
    /// Where a recording starts.
    enum Start: Sendable, Equatable {
        /// The newest complete segment at tune-in.
        case now
        /// The first segment of the window at tune-in.
        case windowStart
    }

    /// One media sequence number of the recording.
    struct Entry: Sendable {
        enum Kind: Sendable, Equatable {
            /// A segment to fetch.
            case segment
            /// EXT-X-GAP in the source.
            case originGap
            /// Media that left the window before it could be fetched (duration estimated).
            case missed
            /// Media lost while the source restarted (duration estimated; `SourceContinuity`).
            case restart
        }

        /// The source segment (for `missed`, one made from what is known: its number, the
        /// estimated duration, the discontinuity sequence before it).
        var segment: MediaSegment
        let kind: Kind
        /// Digest of the source URI without its query (`RecordingEntryRecord.key`); empty when
        /// missed.
        let key: String
    }

    /// What one snapshot added.
    struct Step: Sendable {
        /// Indices into `entries` of the entries it appended.
        let added: Range<Int>
        /// Whether the recording has all the media it asked for.
        let complete: Bool
    }

    /// A segment listed again differs from the one taken.
    struct Changed: Error, Sendable {
        let message: String
    }

    let start: Start
    /// Seconds of media wanted (gaps included); nil: until ENDLIST or a stop.
    let limit: Double?
    /// The entries still entries: the newest, from index `forgotten` on (older ones live in the
    /// recording's timeline log alone, `forget(before:)`).
    private(set) var entries: [Entry] = []
    /// Entries taken and no longer entries.
    private(set) var forgotten = 0
    /// The first media sequence number taken (nil before the first entry).
    private(set) var first: UInt64?
    /// Seconds of media taken.
    private(set) var duration: Double = 0
    /// The next media sequence number to take (nil before the first snapshot).
    private(set) var next: UInt64?
    /// The newest dated entry's PROGRAM-DATE-TIME (seconds since 1970) and the seconds taken
    /// from its start on.
    private var dated: (date: Double, elapsed: Double)?

    init(start: Start, limit: Double?) {
        self.start = start
        self.limit = limit
    }

    /// A timeline that goes on after `entries` (restored from a checkpoint).
    init(start: Start, limit: Double?, restoring entries: [Entry]) {
        self.init(start: start, limit: limit)
        for entry in entries { append(entry) }
    }

    /// Entries taken, forgotten ones included: the next entry's index.
    var count: Int { forgotten + entries.count }

    /// The entry at `index` (counted from the first taken); it must still be entries.
    func entry(_ index: Int) -> Entry { entries[index - forgotten] }

    /// The newest entry.
    var last: Entry? { entries.last }

    /// The entry of media sequence number `msn`, when it is still entries.
    func taken(_ msn: UInt64) -> Entry? {
        guard let oldest = entries.first?.segment.mediaSequence, msn >= oldest, msn - oldest < UInt64(entries.count) else { return nil }
        return entries[Int(msn - oldest)]
    }

    /// Forgets the entries before media sequence number `msn` (always keeping the newest):
    /// those a live playlist no longer lists need no checking against it, and their records are
    /// in the timeline log — so the timeline holds a window, however long the recording.
    mutating func forget(before msn: UInt64) {
        guard let oldest = entries.first?.segment.mediaSequence, msn > oldest else { return }
        let drop = min(Int(clamping: msn - oldest), entries.count - 1)
        guard drop > 0 else { return }
        entries.removeFirst(drop)
        forgotten += drop
    }

    private mutating func append(_ entry: Entry) {
        entries.append(entry)
        if first == nil { first = entry.segment.mediaSequence }
        duration += entry.segment.duration
        next = entry.segment.mediaSequence &+ 1
        if let date = entry.segment.programDateTime?.secondsSince1970 {
            dated = (date, entry.segment.duration)
        } else {
            dated?.elapsed += entry.segment.duration
        }
    }

    /// Whether the wanted media is in.
    var isComplete: Bool { limit.map { duration >= $0 } ?? false }

    /// Takes what `playlist` adds: from `firstTaken` (else as `start` says) when nothing was
    /// taken yet, each segment — listed, or missed (`listed` false; `lost` says of which kind:
    /// left the window, or lost to a restart) — while `admits` it (a rendition takes what the
    /// primary's recorded interval covers).
    /// - Throws: `Changed` when a segment already taken is listed with another URI or
    ///   discontinuity sequence (the stream restarted or was replaced and it was not told so).
    mutating func take(_ playlist: MediaPlaylist, listedIn base: URL? = nil, from firstTaken: UInt64? = nil, lost: Entry.Kind = .missed,
                       admitting admits: (_ segment: MediaSegment, _ listed: Bool) -> Bool = { _, _ in true }) throws(Changed) -> Step {
        let before = count
        guard !isComplete, let first = playlist.segments.first else { return Step(added: before..<before, complete: isComplete) }
        let next = self.next ?? firstTaken ?? (start == .now ? playlist.segments.last!.mediaSequence : first.mediaSequence)
        try check(playlist, before: next, base: base)
        if first.mediaSequence > next, count > 0 || self.next != nil {
            addMissed(next..<first.mediaSequence, before: first, target: Double(playlist.targetDuration ?? 6), kind: lost, admits: admits)
        }
        for segment in playlist.segments where segment.mediaSequence >= max(next, first.mediaSequence) {
            guard !isComplete, admits(segment, true) else { break }
            append(Entry(segment: segment, kind: segment.isGap ? .originGap : .segment, key: RecordingEntryRecord.key(segment.uri, base: base)))
        }
        if self.next == nil { self.next = next }
        return Step(added: before..<count, complete: isComplete)
    }

    /// The segments of `playlist` before `next` that the recording holds must be those it took
    /// (those it no longer holds are older than any playlist it was handed since).
    private func check(_ playlist: MediaPlaylist, before next: UInt64, base: URL?) throws(Changed) {
        for segment in playlist.segments where segment.mediaSequence < next {
            guard let taken = taken(segment.mediaSequence), taken.kind != .missed, taken.kind != .restart else { continue }
            guard taken.key == RecordingEntryRecord.key(segment.uri, base: base),
                  taken.segment.discontinuitySequence == segment.discontinuitySequence else {
                throw Changed(message: "Segment \(segment.mediaSequence) is listed with another URI or discontinuity sequence than the one recorded: the stream restarted or was replaced.")
            }
        }
    }

    /// Where the recorded entries end on the PROGRAM-DATE-TIME clock (seconds since 1970): the
    /// last dated entry's date plus the durations from it on; nil when none is dated.
    var endDate: Double? { dated.map { $0.date + $0.elapsed } }

    /// Gap entries of `kind` for `missed`, which slid out of the window (or were lost to a
    /// restart) before `after` was listed: the span between the recorded entries' end and
    /// `after`'s PROGRAM-DATE-TIME shared among them when both are known, else a target duration
    /// each.
    private mutating func addMissed(_ missed: Range<UInt64>, before after: MediaSegment, target: Double, kind: Entry.Kind,
                                    admits: (MediaSegment, Bool) -> Bool) {
        let count = Double(missed.count)
        var each = target
        if let end = endDate, let nextStart = after.programDateTime?.secondsSince1970 {
            let span = nextStart - end
            // To the millisecond, as a playlist writes it (the dates are no finer).
            if span > 0 { each = max(0.001, (span / count * 1000).rounded() / 1000) }
        }
        let discontinuity = last?.segment.discontinuitySequence ?? after.discontinuitySequence
        for msn in missed {
            guard !isComplete else { break }
            let segment = MediaSegment(uri: "missed-\(msn)", duration: each, mediaSequence: msn, discontinuitySequence: discontinuity, isGap: true)
            guard admits(segment, false) else { break }
            append(Entry(segment: segment, kind: kind, key: ""))
        }
    }
}
