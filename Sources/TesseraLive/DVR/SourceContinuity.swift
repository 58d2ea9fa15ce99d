#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// One track's source numbers mapped onto the recording's, across restarts of the source. A
/// source that starts again — an encoder restarted in place, a stream replaced — numbers its
/// media and discontinuity sequences again, often from zero, and often reuses segment names;
/// the recording's numbers must never go back, nor a name be reused, nor the new stream be
/// spliced onto the old unannounced. Each playlist of the track is checked against the one
/// before and against what the recording took:
/// - its edge went back (the reloader hands such a playlist over only once it shows a restart:
///   `SourceRestart`);
/// - it starts no earlier but in an earlier discontinuity domain;
/// - a segment it lists again is not the one taken (another URI, discontinuity sequence,
///   PROGRAM-DATE-TIME or duration);
/// - after a resume, it lists only what comes before the recording's first segment.
/// Any of these is a restart: from it on, the new source is an epoch of its own — its segments
/// renumbered to follow the recording's after room for the time lost (gap entries: from the
/// PROGRAM-DATE-TIMEs when both sides have them, else from the clock, a target duration each),
/// in a discontinuity domain of their own, so the track's playlist has an EXT-X-DISCONTINUITY
/// before them. A pure value.
struct SourceContinuity: Sendable {
    /// A restart a playlist showed.
    struct Restart: Sendable, Equatable {
        /// How it showed ("segment 12 is listed with another URI than before").
        let reason: String
        /// Seconds of media lost between the recording's last entry and the new source's first.
        let lost: Double
        /// The gap entries the lost time is declared as.
        let gaps: Int
    }

    /// Where the current epoch begins: its first segment's numbers in the source and in the recording.
    private var sourceSequence: UInt64 = 0
    private var sequence: UInt64 = 0
    private var sourceDiscontinuity: UInt64 = 0
    private var discontinuity: UInt64 = 0
    /// The first and last segments of the last playlist seen, in the source's numbers.
    private var previous: (first: MediaSegment, last: MediaSegment)?
    /// When the source's edge last moved on, on the reloader's clock.
    private var advancedAt: Duration?
    /// Restarts seen.
    private(set) var restarts = 0

    /// An unbroken source: the recording's numbers are the source's.
    init() {}

    /// A continuity that goes on after `record`, the last recorded entry of the track (a resume):
    /// its epoch, when a restart had renumbered it.
    init(restoring record: RecordingEntryRecord?) {
        guard let record, let source = record.sourceSequence else { return }
        sourceSequence = source
        sequence = record.sequence
        sourceDiscontinuity = record.sourceDiscontinuity ?? record.discontinuity
        discontinuity = record.discontinuity
    }

    /// The source's media sequence number of the recording's `msn`, in the current epoch (nil
    /// for one before it: a gap entry of the restart).
    func sourceSequence(of msn: UInt64) -> UInt64? {
        msn >= sequence ? msn &- sequence &+ sourceSequence : nil
    }

    /// The source's discontinuity sequence number of the recording's `number`, in the current epoch.
    func sourceDiscontinuity(of number: UInt64) -> UInt64 {
        number &- discontinuity &+ sourceDiscontinuity
    }

    /// The kind of the gap entries the timeline adds before `next`'s successor: lost to a
    /// restart while the recording's numbers are short of the new epoch's, else left the window.
    func gapKind(before next: UInt64?) -> RecordingTimeline.Entry.Kind {
        restarts > 0 && (next ?? 0) < sequence ? .restart : .missed
    }

    /// `playlist`, seen `at` on the reloader's clock, in the recording's numbers for a track whose
    /// timeline is `timeline` (its segments listed at `base`), and the restart it shows.
    /// - Complexity: O(segments).
    mutating func map(_ playlist: MediaPlaylist, at now: Duration, timeline: RecordingTimeline, base: URL?) -> (playlist: MediaPlaylist, restart: Restart?) {
        guard let first = playlist.segments.first, let last = playlist.segments.last else { return (playlist, nil) }
        guard timeline.next != nil else {
            // Nothing taken yet: whatever the source did before, the recording starts here.
            previous = (first, last)
            advancedAt = now
            return (renumbered(playlist, startsEpoch: false), nil)
        }
        var restart: Restart?
        if let reason = restartReason(playlist, timeline: timeline, base: base) {
            restart = begin(playlist, at: now, timeline: timeline, reason: reason)
        }
        if previous.map({ last.mediaSequence > $0.last.mediaSequence }) ?? true || restart != nil { advancedAt = now }
        previous = (first, last)
        return (renumbered(playlist, startsEpoch: restart != nil), restart)
    }

    /// Why `playlist` shows a restart, or nil.
    private func restartReason(_ playlist: MediaPlaylist, timeline: RecordingTimeline, base: URL?) -> String? {
        let first = playlist.segments.first!, last = playlist.segments.last!
        if let previous {
            if last.mediaSequence < previous.last.mediaSequence {
                return "its media sequence went back from \(previous.last.mediaSequence) to \(last.mediaSequence)"
            }
            if first.mediaSequence >= previous.first.mediaSequence, first.discontinuitySequence < previous.first.discontinuitySequence {
                return "its discontinuity sequence went back from \(previous.first.discontinuitySequence) to \(first.discontinuitySequence)"
            }
        }
        guard let firstTaken = timeline.first, let next = timeline.next else { return nil }
        for segment in playlist.segments {
            let msn = segment.mediaSequence &- sourceSequence &+ sequence
            guard segment.mediaSequence >= sourceSequence, msn >= firstTaken, msn < next, let taken = timeline.taken(msn) else { continue }
            guard taken.kind == .segment || taken.kind == .originGap else { continue }
            var listed = segment
            listed.mediaSequence = msn
            listed.discontinuitySequence = segment.discontinuitySequence &- sourceDiscontinuity &+ discontinuity
            if taken.key != RecordingEntryRecord.key(segment.uri, base: base) {
                return "segment \(segment.mediaSequence) is listed with another URI than the one recorded"
            }
            if let difference = SourceRestart.contentDifference(listed, taken.segment) {
                return "segment \(segment.mediaSequence) is listed with \(difference) than the one recorded"
            }
        }
        // A first playlist (a resume) listing only media before the recording's first segment.
        if previous == nil, last.mediaSequence &- sourceSequence &+ sequence < firstTaken, last.mediaSequence >= sourceSequence {
            return "it lists media sequences \(first.mediaSequence)–\(last.mediaSequence), before the recording's first (\(firstTaken))"
        }
        return nil
    }

    /// Begins a new epoch at `playlist`'s first segment: the time lost since the recording's end,
    /// and the numbers the new source's segments take.
    private mutating func begin(_ playlist: MediaPlaylist, at now: Duration, timeline: RecordingTimeline, reason: String) -> Restart {
        let first = playlist.segments.first!
        let target = Double(playlist.targetDuration ?? 6)
        var lost = 0.0
        if let end = timeline.endDate, let start = Self.startDate(of: playlist) {
            lost = max(0, start - end)
        } else if let advancedAt {
            // No dates: from when the old source last moved on to when the new one's first
            // segment began (the media it lists is that old).
            let listed = playlist.segments.reduce(0) { $0 + $1.duration }
            let elapsed = now - advancedAt
            lost = max(0, elapsed.inSeconds - listed)
        }
        let gaps = lost >= 0.25 * target ? max(1, Int((lost / target).rounded())) : 0
        restarts += 1
        sourceSequence = first.mediaSequence
        sequence = (timeline.next ?? first.mediaSequence) &+ UInt64(gaps)
        sourceDiscontinuity = first.discontinuitySequence
        discontinuity = timeline.last.map { $0.segment.discontinuitySequence &+ 1 } ?? first.discontinuitySequence
        return Restart(reason: reason, lost: lost, gaps: gaps)
    }

    /// `playlist` in the recording's numbers (the first segment of a new epoch starting a
    /// discontinuity domain).
    private func renumbered(_ playlist: MediaPlaylist, startsEpoch: Bool) -> MediaPlaylist {
        guard sequence != sourceSequence || discontinuity != sourceDiscontinuity else { return playlist }
        var mapped = playlist
        mapped.mediaSequence = playlist.mediaSequence &- sourceSequence &+ sequence
        mapped.discontinuitySequence = playlist.discontinuitySequence &- sourceDiscontinuity &+ discontinuity
        for index in mapped.segments.indices {
            mapped.segments[index].mediaSequence = mapped.segments[index].mediaSequence &- sourceSequence &+ sequence
            mapped.segments[index].discontinuitySequence = mapped.segments[index].discontinuitySequence &- sourceDiscontinuity &+ discontinuity
        }
        if startsEpoch { mapped.segments[0].isDiscontinuity = true }
        return mapped
    }

    /// When `playlist`'s first segment starts on the PROGRAM-DATE-TIME clock, from its first
    /// dated segment and the durations before it.
    static func startDate(of playlist: MediaPlaylist) -> Double? {
        var before = 0.0
        for segment in playlist.segments {
            if let date = segment.programDateTime?.secondsSince1970 { return date - before }
            before += segment.duration
        }
        return nil
    }
}
