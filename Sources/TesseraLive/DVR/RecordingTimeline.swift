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
    private(set) var entries: [Entry] = []
    /// Seconds of media in `entries`.
    private(set) var duration: Double = 0
    /// The next media sequence number to take (nil before the first snapshot).
    private(set) var next: UInt64?

    init(start: Start, limit: Double?) {
        self.start = start
        self.limit = limit
    }

    /// A timeline that goes on after `entries` (restored from a checkpoint).
    init(start: Start, limit: Double?, restoring entries: [Entry]) {
        self.init(start: start, limit: limit)
        self.entries = entries
        duration = entries.reduce(0) { $0 + $1.segment.duration }
        next = entries.last.map { $0.segment.mediaSequence &+ 1 }
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
        let before = entries.count
        guard !isComplete, let first = playlist.segments.first else { return Step(added: before..<before, complete: isComplete) }
        let next = self.next ?? firstTaken ?? (start == .now ? playlist.segments.last!.mediaSequence : first.mediaSequence)
        try check(playlist, before: next, base: base)
        if first.mediaSequence > next, !entries.isEmpty || self.next != nil {
            addMissed(next..<first.mediaSequence, before: first, target: Double(playlist.targetDuration ?? 6), kind: lost, admits: admits)
        }
        for segment in playlist.segments where segment.mediaSequence >= max(next, first.mediaSequence) {
            guard !isComplete, admits(segment, true) else { break }
            entries.append(Entry(segment: segment, kind: segment.isGap ? .originGap : .segment, key: RecordingEntryRecord.key(segment.uri, base: base)))
            duration += segment.duration
            self.next = segment.mediaSequence &+ 1
        }
        if self.next == nil { self.next = next }
        return Step(added: before..<entries.count, complete: isComplete)
    }

    /// The segments of `playlist` before `next` that the recording holds must be those it took.
    private func check(_ playlist: MediaPlaylist, before next: UInt64, base: URL?) throws(Changed) {
        guard let firstTaken = entries.first?.segment.mediaSequence else { return }
        for segment in playlist.segments where segment.mediaSequence >= firstTaken && segment.mediaSequence < next {
            let taken = entries[Int(segment.mediaSequence - firstTaken)]
            guard taken.kind != .missed, taken.kind != .restart else { continue }
            guard taken.key == RecordingEntryRecord.key(segment.uri, base: base),
                  taken.segment.discontinuitySequence == segment.discontinuitySequence else {
                throw Changed(message: "Segment \(segment.mediaSequence) is listed with another URI or discontinuity sequence than the one recorded: the stream restarted or was replaced.")
            }
        }
    }

    /// Where the recorded entries end on the PROGRAM-DATE-TIME clock (seconds since 1970): the
    /// last dated entry's date plus the durations from it on; nil when none is dated.
    /// - Complexity: O(entries after the last dated one).
    var endDate: Double? {
        var elapsed = 0.0
        for entry in entries.reversed() {
            elapsed += entry.segment.duration
            if let date = entry.segment.programDateTime?.secondsSince1970 { return date + elapsed }
        }
        return nil
    }

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
        let discontinuity = entries.last?.segment.discontinuitySequence ?? after.discontinuitySequence
        for msn in missed {
            guard !isComplete else { break }
            let segment = MediaSegment(uri: "missed-\(msn)", duration: each, mediaSequence: msn, discontinuitySequence: discontinuity, isGap: true)
            guard admits(segment, false) else { break }
            entries.append(Entry(segment: segment, kind: kind, key: ""))
            duration += each
            next = msn &+ 1
        }
    }
}
