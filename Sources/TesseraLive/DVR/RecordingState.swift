#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// A recording's coordination as a value, in the shape of the retry and steering state machines:
/// every event — a snapshot arrives, a track retries or ends, entries are accounted, a resource
/// is written, a stop is asked — moves it on and answers with the actions the session carries
/// out (route a track's fetches, plan entries, report progress or a gap, evict, publish a
/// snapshot, stop, end the planning). No I/O, no clock, no lock: the session holds it in one lock
/// and does what it says; tests drive it directly.
struct RecordingState: Sendable {
    /// What happened.
    enum Input: Sendable {
        /// Track `track`'s reloader sent `snapshot` (its playlist's URL `url`).
        case snapshot(track: Int, LiveSnapshot, url: URL)
        /// A reload failed and is retried (said once until taken: `retried` counts them all).
        case retrying(track: Int)
        /// A reload failed (every one, for the count).
        case retried
        /// Track `track`'s follow ended, with `failure` or at ENDLIST or cancelled (nil).
        case ended(track: Int, HLSError?)
        /// The engine wrote a resource: where the output stands.
        case written(Written)
        /// The planning cannot go on: the recording fails without committing (`abandon`).
        case abandoned(HLSError)
        /// `RecordingControl.stop()`: no further segment is taken, whatever the reloaders still send.
        case stopAsked
    }

    /// The output's account after a write.
    struct Written: Sendable {
        /// Resources written, counting those evicted before this run.
        var resources: Int
        var bytes: UInt64
        /// Segments its server could not give, so far.
        var unavailable: Int
        /// The last of them, and why.
        var lastUnavailable: (identity: ResourceIdentity, error: HLSError)?
        /// How many of them in a row, up to the last written.
        var consecutiveUnavailable: Int
        /// Whether a snapshot is asked for.
        var snapshotAsked: Bool
    }

    /// What the session does.
    enum Action: Sendable {
        /// Fetches of `stream` resolve against `url` on `pathway` from now on.
        case route(StreamIdentity, url: URL, pathway: String?)
        /// Entries `added` of track `track`'s timeline (starting at `starts`) are to be planned.
        case plan(track: Int, added: Range<Int>, starts: [Double])
        /// Track `track`'s source restarted.
        case restarted(track: String, SourceContinuity.Restart)
        /// Nothing more of `stream` is planned (its staged parts can go).
        case retire(StreamIdentity)
        /// The planning is over (why, if anything ended it, is `planned.end` or `planned.abandon`).
        case over
        /// Where the recording is.
        case progress(RecordingProgress)
        /// Segment `mediaSequence` of `track` could not be fetched: a gap.
        case unavailable(track: String, mediaSequence: UInt64, reason: String)
        /// The recording ends with `failure` (what it holds is committed).
        case stop(HLSError)
        /// Rolling retention may evict now.
        case evict
        /// A snapshot is asked for and a segment is written.
        case publishSnapshot
    }

    /// Reload retries of a rendition after the primary is done that end it where it is.
    static let retriesEndingRendition = 3

    let onRestart: LiveRecording.RestartPolicy
    let evicts: Bool
    /// Where the planning stands (tracks, resources, why it ended).
    private(set) var planned: RecordingPlanning.Planned
    /// The primary takes nothing more.
    private(set) var primaryDone = false
    /// A stop was asked: nothing more is planned.
    private(set) var stopped = false
    /// When the primary was done (its reloader's time): a rendition still short three of its
    /// target durations later (a stalled playlist answering without new segments) ends there.
    private var doneAt: Duration?
    private var retriesSinceDone: [Int: Int] = [:]
    /// Where each planned resource's file goes, until the output takes it.
    var places: [ResourceIdentity: SafeRelativePath] = [:]
    /// After each planned primary entry: resources planned, seconds, segments and gaps up to it
    /// (from the last one written on: older ones are dropped).
    private(set) var marks: [(resources: Int, duration: Double, segments: Int, gaps: Int)] = []
    private(set) var retries = 0
    private var unavailableReported = 0
    /// Set when the recording must end with this failure (too many unavailable in a row, an
    /// eviction that could not be made durable).
    var failure: HLSError?
    /// Every Date Range the primary's playlist showed.
    private(set) var dateRanges = RecordingDateRanges()
    /// By track ID: its latest playlist's header (no segments, no Date Ranges).
    private(set) var headers: [String: MediaPlaylist] = [:]
    /// Snapshots published.
    var snapshots = 0
    /// Restarts of the source (the most any track showed).
    private(set) var restarts = 0

    /// A recording that restarts as `onRestart` says and `evicts` under rolling retention,
    /// starting from `planned` (fresh, or what a checkpoint restored) and its primary's `marks`.
    init(from planned: RecordingPlanning.Planned = RecordingPlanning.Planned(tracks: [], resources: 0),
         marks: [(resources: Int, duration: Double, segments: Int, gaps: Int)] = [], onRestart: LiveRecording.RestartPolicy, evicts: Bool) {
        self.planned = planned
        self.marks = marks
        self.onRestart = onRestart
        self.evicts = evicts
    }

    /// Starts over from what a checkpoint restored.
    mutating func restore(_ restored: RecordingPlanning.Planned, marks: [(resources: Int, duration: Double, segments: Int, gaps: Int)]) {
        planned = restored
        self.marks = marks
    }

    /// How long a rendition is waited for once the primary is done: three of its target durations.
    static func grace(for track: RecordingTrackPlan) -> Duration {
        .seconds(3 * Int(track.latest?.playlist.targetDuration ?? 6))
    }

    /// Whether the planning has all it wants: the primary done and every rendition past its end.
    var isComplete: Bool { primaryDone && planned.tracks.dropFirst().allSatisfy(\.done) }

    mutating func handle(_ input: Input) -> [Action] {
        if stopped, case .written = input {} else if stopped { return [.over] }
        switch input {
        case .snapshot(let track, let snapshot, let url): return take(snapshot, of: track, url: url)
        case .retrying(let track):
            // A rendition that cannot be reloaded once the primary is done ends where it is —
            // after a few retries: the tracks' events are not ordered with each other, and one
            // retry may be an outage's last, reported after the primary's end.
            if track > 0, primaryDone {
                retriesSinceDone[track, default: 0] += 1
                if retriesSinceDone[track, default: 0] >= Self.retriesEndingRendition { planned.tracks[track].done = true }
            }
            return aligned()
        case .retried:
            retries += 1
            return []
        case .ended(let track, let failure):
            if let failure, failure.code != .cancelled, !primaryDone || track == 0 {
                if planned.end == nil { planned.end = .failed(code: failure.code, reason: failure.message) }
                primaryDone = true
                return [.over]
            }
            if track == 0 {
                primaryDone = true
            } else if planned.tracks[track].latest?.playlist.hasEndList != true {
                planned.tracks[track].done = true
            }
            // A rendition that reached ENDLIST before the primary took what it covers still holds
            // its last playlist: it goes on taking from it as the primary's span grows.
            return aligned()
        case .written(let written): return wrote(written)
        case .abandoned(let error):
            planned.abandon = error
            return [.over]
        case .stopAsked:
            stopped = true
            return [.over]
        }
    }

    /// A snapshot of track `track`: its header kept, the primary's new entries taken (or, once
    /// it is done, the renditions' grace counted), a rendition's playlist observed; a restart said
    /// (and the end, under `--on-restart end`).
    private mutating func take(_ snapshot: LiveSnapshot, of track: Int, url: URL) -> [Action] {
        var actions: [Action] = [.route(planned.tracks[track].stream, url: url, pathway: snapshot.pathway)]
        var header = snapshot.playlist
        header.segments = []
        header.dateRanges = []
        headers[planned.tracks[track].id] = header
        if track > 0 {
            if let restart = planned.tracks[track].observe(snapshot.playlist, listedIn: url, at: snapshot.at) {
                actions += restarted(restart, of: track)
                if planned.end != nil { return actions + [.over] }
            }
            return actions + aligned()
        }
        dateRanges.observe(snapshot.playlist)
        if primaryDone {
            planned.tracks[0].latest = (snapshot.playlist, url)
            let since = doneAt.map { snapshot.at - $0 } ?? .zero
            if doneAt == nil { doneAt = snapshot.at }
            for index in planned.tracks.indices.dropFirst() where since >= Self.grace(for: planned.tracks[index]) {
                planned.tracks[index].done = true
            }
            return actions + aligned()
        }
        do throws(RecordingTimeline.Changed) {
            let (step, starts, restart) = try planned.tracks[0].take(snapshot.playlist, listedIn: url, at: snapshot.at)
            if let restart {
                actions += restarted(restart, of: 0)
                if planned.end != nil { return actions + [.over] }
            }
            actions.append(.plan(track: 0, added: step.added, starts: starts))
            if step.complete { (primaryDone, planned.end) = (true, .duration) }
        } catch {
            planned.end = .failed(code: .sourceChanged, reason: error.message)
            return actions + [.over]
        }
        if snapshot.playlist.hasEndList, !primaryDone { (primaryDone, planned.end) = (true, .endList) }
        return actions + aligned()
    }

    /// What each rendition's latest playlist covers of the primary's span, to plan; the streams
    /// nothing more is planned of; the end of the planning once it has all it wants.
    private mutating func aligned() -> [Action] {
        var actions: [Action] = []
        for track in planned.tracks.indices.dropFirst() {
            do throws(RecordingTimeline.Changed) {
                let (added, starts) = try planned.tracks[track].takeAligned(with: planned.primary, primaryDone: primaryDone)
                if !added.isEmpty { actions.append(.plan(track: track, added: added, starts: starts)) }
            } catch {
                planned.end = .failed(code: .sourceChanged, reason: "\(planned.tracks[track].id): \(error.message)")
                return actions + [.over]
            }
        }
        if primaryDone { actions.append(.retire(planned.primary.stream)) }
        for track in planned.tracks.dropFirst() where track.done { actions.append(.retire(track.stream)) }
        if isComplete { actions.append(.over) }
        return actions
    }

    /// Says `restart` of track `track`; under `--on-restart end`, ends the recording there (what
    /// came before is committed).
    private mutating func restarted(_ restart: SourceContinuity.Restart, of track: Int) -> [Action] {
        let plan = planned.tracks[track]
        restarts = max(restarts, plan.continuity.restarts)
        if onRestart == .end { planned.end = .sourceRestarted(reason: "\(plan.id): the source restarted: \(restart.reason)") }
        return [.restarted(track: plan.id, restart)]
    }

    /// Plans entry `index` of track `track` at `position`: its fetches (placed), the record the
    /// ledger takes, the primary's progress mark. Throws what the planner refuses.
    mutating func plan(entry index: Int, of track: Int, at position: Double, listedIn url: URL, gapWhenUnavailable: Bool)
        throws(HLSError) -> (fetches: [RecordingPlanner.Planned], record: RecordingEntryRecord) {
        let entry = planned.tracks[track].timeline.entry(index)
        let sourceSequence = planned.tracks[track].sourceSequence(of: entry)
        let fetches = try planned.tracks[track].planner.plan(entry, listedIn: url, at: position, resources: &planned.resources,
                                                             sourceSequence: sourceSequence ?? entry.segment.mediaSequence,
                                                             gapWhenUnavailable: gapWhenUnavailable)
        for item in fetches { places[item.fetch.resources[0].identity] = item.path }
        let record = RecordingEntryRecord(entry, track: planned.tracks[track].id, local: planned.tracks[track].planner.newest!,
                                          mapKey: entry.kind == .segment ? RecordingPlanner.mapKey(entry.segment) : nil,
                                          alignment: planned.tracks[track].alignment?.rawValue, continuity: planned.tracks[track].continuity)
        if track == 0 {
            let last = marks.last
            let segment = entry.kind == .segment ? 1 : 0
            marks.append((planned.resources, (last?.duration ?? 0) + entry.segment.duration, (last?.segments ?? 0) + segment,
                          (last?.gaps ?? 0) + 1 - segment))
        }
        return (fetches, record)
    }

    /// The planning ends with `end` (a plan its planner refused).
    mutating func end(_ end: RecordingReport.End) { planned.end = end }

    /// After a write: the progress, a gap for each segment newly unavailable (and the stop once
    /// too many in a row could not be fetched), retention and a snapshot asked for.
    private mutating func wrote(_ written: Written) -> [Action] {
        var actions: [Action] = []
        let index = marks.lastIndex { $0.resources <= written.resources }
        let mark = index.map { marks[$0] }
        // Marks before the last one written are never looked at again.
        if let index, index > 0 { marks.removeFirst(index) }
        if written.unavailable > unavailableReported, let (identity, error) = written.lastUnavailable {
            let track = identity.stream == .main ? RecordingPlanner.primaryTrack : identity.stream.rawValue
            actions.append(.unavailable(track: track, mediaSequence: identity.mediaSequence, reason: error.message))
            if written.consecutiveUnavailable >= LiveRecording.maximumConsecutiveUnavailable {
                let failure = HLSError(error.code, "\(written.consecutiveUnavailable) segments in a row could not be fetched; the source is taken to be gone. The last: \(error.message)", cause: error)
                self.failure = failure
                actions.append(.stop(failure))
            }
        }
        unavailableReported = written.unavailable
        actions.append(.progress(RecordingProgress(duration: mark?.duration ?? 0, segments: mark?.segments ?? 0,
                                                   gaps: (mark?.gaps ?? 0) + written.unavailable, retries: retries, bytes: written.bytes,
                                                   edgeLag: max(0, (marks.last?.duration ?? 0) - (mark?.duration ?? 0)))))
        if evicts { actions.append(.evict) }
        if written.snapshotAsked { actions.append(.publishSnapshot) }
        return actions
    }
}
