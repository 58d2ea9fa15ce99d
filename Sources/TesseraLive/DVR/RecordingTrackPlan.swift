#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist

/// One track of a recording while it is planned — the primary (the variant's stream) or a
/// rendition recorded aligned with it: its timeline, its files, where its segments sit on the
/// common timeline (`RecordingPositions`), and the span it has taken. The primary takes as the
/// recording's start and duration say; a rendition takes, from the segment covering the
/// primary's first, each segment that starts before the primary's end (one target duration more
/// on each side when the two could be aligned only at the live edge), and is done once the
/// primary is and its next segment starts past that end. A pure value.
struct RecordingTrackPlan: Sendable {
    /// How a rendition is aligned with the primary.
    enum Alignment: String, Sendable, Codable {
        /// Both have PROGRAM-DATE-TIME.
        case programDateTime = "program-date-time"
        /// From the first segment of a discontinuity domain both listed, plus accumulated EXTINF.
        case discontinuity
        /// From the live edge both showed at tune-in, plus accumulated EXTINF (a target duration
        /// of margin each side).
        case liveEdge = "live-edge"

        /// Seconds of margin each side of the primary's span for a rendition of `targetDuration`
        /// (nil: unknown, 6) so aligned: a target duration at the live edge (the edges can be a
        /// segment apart), none otherwise.
        func margin(targetDuration: UInt64?) -> Double {
            self == .liveEdge ? Double(targetDuration ?? 6) : 0
        }

        /// How a manifest says it.
        var description: String {
            switch self {
            case .programDateTime: "program-date-time"
            case .discontinuity: "discontinuity sequence and accumulated EXTINF"
            case .liveEdge: "the live edge at tune-in and accumulated EXTINF (a target duration of margin each side)"
            }
        }
    }

    let id: String
    let role: PackageTrack.Role
    let stream: StreamIdentity
    /// Its index among the multivariant playlist's renditions; nil for the primary.
    let rendition: Int?
    var timeline: RecordingTimeline
    var planner: RecordingPlanner
    private(set) var positions: RecordingPositions?
    /// Where its first entry starts and its last ends, on the common timeline.
    private(set) var start: Double?
    private(set) var end: Double?
    /// Its latest playlist and where it was listed (a rendition waits with it for the primary).
    var latest: (playlist: MediaPlaylist, url: URL)?
    private(set) var alignment: Alignment?
    private var anchor: RecordingPositions.Anchor?
    /// Nothing more is taken.
    var done = false
    /// The source's numbers in the recording's, across restarts of the source.
    private(set) var continuity = SourceContinuity()

    /// A track with nothing taken yet.
    init(id: String, role: PackageTrack.Role, rendition: Int?, timeline: RecordingTimeline) {
        self.id = id
        self.role = role
        stream = rendition == nil ? .main : StreamIdentity(id)
        self.rendition = rendition
        self.timeline = timeline
        planner = RecordingPlanner(track: id, role: role, stream: stream)
    }

    /// A track that goes on after `records` (restored from a checkpoint, its own, in order).
    init(id: String, role: PackageTrack.Role, rendition: Int?, timeline: RecordingTimeline, restoring records: [RecordingEntryRecord]) {
        self.init(id: id, role: role, rendition: rendition, timeline: timeline)
        planner = RecordingPlanner(track: id, role: role, stream: stream, restoring: records)
        continuity = SourceContinuity(restoring: records.last { $0.kind != "missed" && $0.kind != "restart" })
        guard let first = records.first, let last = records.last else { return }
        start = first.position
        end = last.position + last.duration
        alignment = last.alignment.flatMap(Alignment.init(rawValue:))
        positions = RecordingPositions(mode: last.date != nil ? .dates : .accumulated, restoring: last.sequence, start: last.position, duration: last.duration)
    }

    /// Seconds of margin each side of the primary's span (aligned at the live edge only).
    var margin: Double {
        alignment?.margin(targetDuration: latest?.playlist.targetDuration) ?? 0
    }

    /// The primary takes what `playlist`, listed at `url` and seen `at` (the reloader's clock),
    /// adds: the entries' indices and starts, and the restart of the source it shows, if any
    /// (the new source is taken behind a discontinuity, the time lost as gap entries).
    mutating func take(_ playlist: MediaPlaylist, listedIn url: URL, at now: Duration = .zero) throws(RecordingTimeline.Changed)
        -> (step: RecordingTimeline.Step, starts: [Double], restart: SourceContinuity.Restart?) {
        let restart = observe(playlist, listedIn: url, at: now)
        let playlist = latest!.playlist
        var positions = self.positions ?? RecordingPositions(mode: playlist.segments.contains { $0.programDateTime != nil } ? .dates : .accumulated)
        positions.observe(playlist, anchor: .edge(positions.edge ?? 0))
        self.positions = positions
        if let first = playlist.segments.first { timeline.forget(before: first.mediaSequence) }
        let step = try timeline.take(playlist, listedIn: url, lost: continuity.gapKind(before: timeline.next))
        return (step, place(step.added), restart)
    }

    /// Keeps `playlist`, listed at `url` and seen `at`, as the track's latest, in the recording's
    /// numbers; returns the restart of the source it shows, if any.
    mutating func observe(_ playlist: MediaPlaylist, listedIn url: URL, at now: Duration) -> SourceContinuity.Restart? {
        let (mapped, restart) = continuity.map(playlist, at: now, timeline: timeline, base: url)
        latest = (mapped, url)
        return restart
    }

    /// The source's media sequence number of `entry` (nil for a gap of a restart).
    func sourceSequence(of entry: RecordingTimeline.Entry) -> UInt64? {
        continuity.sourceSequence(of: entry.segment.mediaSequence)
    }

    /// A rendition takes, from its latest playlist, what the primary's span so far covers;
    /// `primaryDone`: the primary takes nothing more.
    mutating func takeAligned(with primary: RecordingTrackPlan, primaryDone: Bool) throws(RecordingTimeline.Changed) -> (added: Range<Int>, starts: [Double]) {
        let none = timeline.count..<timeline.count
        guard let primaryStart = primary.start, let primaryEnd = primary.end, let reference = primary.positions else {
            if primaryDone { done = true }    // the primary recorded nothing: nothing to align with
            return (none, [])
        }
        guard !done, let (playlist, url) = latest else { return (none, []) }
        if positions == nil { align(playlist, with: reference) }
        guard var positions else { return (none, []) }
        positions.observe(playlist, anchor: anchor ?? .edge(reference.edge ?? primaryEnd),
                          domains: positions.mode == .accumulated ? reference.domainStarts : [:])
        self.positions = positions
        anchor = nil
        let epsilon = 0.001
        let margin = self.margin
        var first: UInt64?
        if timeline.next == nil {
            // The segment covering the primary's start (or the first after it).
            let low = primaryStart - margin
            guard let covering = playlist.segments.first(where: { (positions.start(of: $0.mediaSequence) ?? -.infinity) + $0.duration > low + epsilon }) else {
                if primaryDone { done = true }
                return (none, [])
            }
            first = covering.mediaSequence
        }
        if let oldest = playlist.segments.first { timeline.forget(before: oldest.mediaSequence) }
        let bound = primaryEnd + margin
        // Missed segments (never listed) start where the one before ended.
        var cursor = end ?? primaryStart
        let step = try timeline.take(playlist, listedIn: url, from: first, lost: continuity.gapKind(before: timeline.next)) { segment, listed in
            guard let start = listed ? positions.start(of: segment.mediaSequence) : cursor, start < bound - epsilon else { return false }
            // A domain this track saw begin waits until the primary's beginning is placed.
            let domain = segment.discontinuitySequence
            guard primaryDone || positions.mode == .dates || positions.domainStarts[domain] == nil || reference.domainStarts[domain] != nil else {
                return false
            }
            cursor = start + segment.duration
            return true
        }
        let starts = place(step.added)
        if primaryDone {
            if let end, end >= bound - epsilon {
                done = true    // covered: no later segment could be admitted
            } else if let pending = playlist.segments.first(where: { $0.mediaSequence >= timeline.next ?? 0 }) {
                if (positions.start(of: pending.mediaSequence) ?? bound) >= bound - epsilon { done = true }
            } else if playlist.hasEndList {
                done = true
            }
        }
        return (step.added, starts)
    }

    /// How a rendition's first playlist is placed against the primary's timeline.
    private mutating func align(_ playlist: MediaPlaylist, with reference: RecordingPositions) {
        if reference.mode == .dates, playlist.segments.contains(where: { $0.programDateTime != nil }) {
            positions = RecordingPositions(mode: .dates)
            alignment = .programDateTime
            return
        }
        positions = RecordingPositions(mode: .accumulated)
        if let shared = playlist.segments.first(where: { $0.isDiscontinuity && reference.domainStarts[$0.discontinuitySequence] != nil }),
           let start = reference.domainStarts[shared.discontinuitySequence] {
            alignment = .discontinuity
            anchor = .segment(shared.mediaSequence, start)
        } else {
            alignment = .liveEdge
        }
    }

    /// The starts of the entries at `added`, the span extended to their end.
    private mutating func place(_ added: Range<Int>) -> [Double] {
        var starts: [Double] = []
        starts.reserveCapacity(added.count)
        for index in added {
            let entry = timeline.entry(index)
            let listed = entry.kind == .missed || entry.kind == .restart ? nil : positions?.start(of: entry.segment.mediaSequence)
            let start = listed ?? end ?? 0
            starts.append(start)
            if self.start == nil { self.start = start }
            end = start + entry.segment.duration
        }
        return starts
    }
}

extension RecordingTrackPlan {
    /// The tracks a recording of `source` starts with — the primary, then one for each rendition
    /// — each going on after its own `records`.
    static func tracks(of source: RecordingSource, restoring records: [RecordingEntryRecord], start: RecordingTimeline.Start,
                       limit: Double?) -> [RecordingTrackPlan] {
        func plan(_ id: String, _ role: PackageTrack.Role, rendition: Int?) -> RecordingTrackPlan {
            let own = records.filter { $0.track == id }
            let timeline = RecordingTimeline(start: rendition == nil ? start : .windowStart, limit: rendition == nil ? limit : nil,
                                             restoring: own.compactMap(\.entry))
            return RecordingTrackPlan(id: id, role: role, rendition: rendition, timeline: timeline, restoring: own)
        }
        return [plan(RecordingPlanner.primaryTrack, .video, rendition: nil)] + source.renditions.map { plan($0.id, $0.role, rendition: $0.index) }
    }
}
