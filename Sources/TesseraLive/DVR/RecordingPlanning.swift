#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// The recorder's planning half: reads every track's snapshots (`SnapshotInbox`), adds the
/// primary's to its timeline and then what each rendition's latest playlist covers of the
/// primary's span (`RecordingTrackPlan`), plans the new entries' fetches and queues them for the
/// one transfer (waiting while the queue is full: snapshots coalesce meanwhile), until the
/// recording has what it wants — the primary's duration, ENDLIST or a stop, and each rendition
/// past its end (or retrying, or ended) — or the transfer has ended.
struct RecordingPlanning: Sendable {
    let options: LiveRecording.Options
    let source: RecordingSource
    let control: RecordingControl
    /// Told each snapshot's playlist URL and pathway, before its fetches are queued.
    let resolver: LiveURLResolver
    /// LL-HLS part staging, when asked for: segments planned are promoted from it.
    let parts: PartStager?
    let events: @Sendable (LiveRecording.Notice) -> Void

    /// How long a rendition is waited for once the primary is done: three of its target durations.
    static func grace(for track: RecordingTrackPlan) -> Duration {
        .seconds(3 * Int(track.latest?.playlist.targetDuration ?? 6))
    }

    /// Reload retries of a rendition after the primary is done that end it where it is.
    static let retriesEndingRendition = 3

    /// What the planner hands over when it ends.
    struct Planned: Sendable {
        /// The primary first, then the renditions.
        var tracks: [RecordingTrackPlan]
        /// Resources planned, every track's.
        var resources: Int
        var end: RecordingReport.End?
        /// Set when the recording must fail without committing (fail-on-gap, a volume that cannot
        /// take the timeline checkpoint).
        var abandon: HLSError?

        var primary: RecordingTrackPlan { tracks[0] }
    }

    /// What the planner, the sink and the progress share.
    struct Shared: Sendable {
        var places: [ResourceIdentity: SafeRelativePath] = [:]
        /// After each planned primary entry: resources planned, seconds, segments and gaps up to it
        /// (from the last one written on: the progress drops the older).
        var marks: [(resources: Int, duration: Double, segments: Int, gaps: Int)] = []
        var retries = 0
        /// Unavailable segments reported so far.
        var unavailableReported = 0
        /// Set when the recording must end with this failure (too many unavailable in a row, an
        /// eviction that could not be made durable).
        var failure: HLSError?
        /// Every Date Range the primary's playlist showed.
        var dateRanges = RecordingDateRanges()
        /// By track ID: its latest playlist's header (no segments, no Date Ranges).
        var headers: [String: MediaPlaylist] = [:]
        /// Snapshots published.
        var snapshots = 0
        /// Restarts of the source (the most any track showed).
        var restarts = 0
        /// The snapshots being verified and published.
        var publishing: [Int: Task<Void, Never>] = [:]
    }

    /// Reads the inbox until the recording has what it wants, planning each snapshot's new
    /// entries, recording them durably in the timeline log (before any of their fetches is
    /// queued: the sink's checkpoint never vouches for a file the log does not name), then
    /// queueing their fetches. `planned` is where it starts (fresh, or restored).
    func plan(_ inbox: some AsyncSequence<SnapshotInbox.Item, Never>, into queue: BoundedChannel<PlannedFetch>, shared: Lock<Shared>, log: Lock<RecordingLedger>,
              from start: Planned) async -> Planned {
        var planned = start
        var primaryDone = false
        // When the primary was done (its reloader's time): a rendition still short three of its
        // target durations later (a stalled playlist answering without new segments) ends there.
        var doneAt: Duration?
        var retriesSinceDone: [Int: Int] = [:]
        reading: for await item in inbox {
            // A stop takes no further segment, whatever the reloaders still hand over.
            guard !control.isStopped else { break }
            var taken: [(track: Int, added: Range<Int>, starts: [Double])] = []
            switch item {
            case .snapshot(let track, let snapshot):
                let url = snapshot.url ?? (track == 0 ? source.mediaURL : source.renditions[track - 1].url)
                resolver.update(planned.tracks[track].stream, url: url, pathway: snapshot.pathway)
                var header = snapshot.playlist
                header.segments = []
                header.dateRanges = []
                shared.withLock { shared in
                    shared.headers[planned.tracks[track].id] = header
                    if track == 0 { shared.dateRanges.observe(snapshot.playlist) }
                }
                if track == 0 {
                    if primaryDone {
                        planned.tracks[0].latest = (snapshot.playlist, url)
                        let since = doneAt.map { snapshot.at - $0 } ?? .zero
                        if doneAt == nil { doneAt = snapshot.at }
                        for index in planned.tracks.indices.dropFirst() where since >= Self.grace(for: planned.tracks[index]) {
                            planned.tracks[index].done = true
                        }
                    } else {
                        do {
                            let (step, starts, restart) = try planned.tracks[0].take(snapshot.playlist, listedIn: url, at: snapshot.at)
                            if let restart, let end = restarted(restart, of: planned.tracks[0], planned: &planned, shared: shared) {
                                planned.end = end
                                break reading
                            }
                            taken.append((0, step.added, starts))
                            if step.complete { (primaryDone, planned.end) = (true, .duration) }
                        } catch {
                            planned.end = .failed(code: .sourceChanged, reason: error.message)
                            break reading
                        }
                        if snapshot.playlist.hasEndList, !primaryDone { (primaryDone, planned.end) = (true, .endList) }
                    }
                } else if let restart = planned.tracks[track].observe(snapshot.playlist, listedIn: url, at: snapshot.at),
                          let end = restarted(restart, of: planned.tracks[track], planned: &planned, shared: shared) {
                    planned.end = end
                    break reading
                }
            case .retrying(let track):
                // A rendition that cannot be reloaded once the primary is done ends where it is —
                // after a few retries: the tracks' events are not ordered with each other, and one
                // retry may be an outage's last, reported after the primary's end.
                if track > 0, primaryDone {
                    retriesSinceDone[track, default: 0] += 1
                    if retriesSinceDone[track, default: 0] >= Self.retriesEndingRendition { planned.tracks[track].done = true }
                }
            case .ended(let track, let failure):
                if let failure, failure.code != .cancelled, !primaryDone || track == 0 {
                    if planned.end == nil { planned.end = .failed(code: failure.code, reason: failure.message) }
                    primaryDone = true
                    break reading
                }
                if track == 0 {
                    primaryDone = true
                } else if planned.tracks[track].latest?.playlist.hasEndList != true {
                    planned.tracks[track].done = true
                }
                // A rendition that reached ENDLIST before the primary took what it covers still
                // holds its last playlist: it goes on taking from it as the primary's span grows
                // (`takeAligned` says when it is done).
            }
            for track in planned.tracks.indices.dropFirst() {
                do {
                    let (added, starts) = try planned.tracks[track].takeAligned(with: planned.primary, primaryDone: primaryDone)
                    taken.append((track, added, starts))
                } catch {
                    planned.end = .failed(code: .sourceChanged, reason: "\(planned.tracks[track].id): \(error.message)")
                    break reading
                }
            }
            switch await queueFetches(taken, planned: &planned, into: queue, shared: shared, log: log) {
            case .some(let end):
                if let end { planned.end = end }
                break reading
            case .none: break
            }
            if let parts {
                if primaryDone { parts.retire(planned.primary.stream) }
                for track in planned.tracks.dropFirst() where track.done { parts.retire(track.stream) }
            }
            if queue.isFinished { break }
            if primaryDone, planned.tracks.dropFirst().allSatisfy(\.done) { break }
        }
        queue.finish()
        // The fetches still queued or in flight resolve against the playlists the reloaders
        // hold: they go on being told where those are (a pathway move) until the transfer is
        // over and the session ends the follows.
        for await item in inbox {
            guard case .snapshot(let track, let snapshot) = item, let url = snapshot.url else { continue }
            resolver.update(planned.tracks[track].stream, url: url, pathway: snapshot.pathway)
        }
        return planned
    }

    /// Hands a planned segment its staged parts (its fetch, the last of `items`, then takes them
    /// instead of a request once proven); anything else only moves the stage past it. The stage
    /// knows the source's numbers (`sourceSequence`), which a restart of the source makes differ
    /// from the recording's.
    private func stage(_ entry: RecordingTimeline.Entry, sourceSequence: UInt64, of stream: StreamIdentity, in items: inout [RecordingPlanner.Planned],
                       _ parts: PartStager) {
        guard entry.kind == .segment, let last = items.indices.last, items[last].fetch.resources[0].identity.kind == .segment else {
            parts.advance(stream, through: sourceSequence)
            return
        }
        var segment = entry.segment
        segment.mediaSequence = sourceSequence
        items[last].fetch.staged = parts.promotion(for: segment, stream: stream)
    }

    /// Reports `restart`, shown by `track`'s playlist; under `--on-restart end`, the end it makes
    /// (what came before is committed), else nil: the recording goes on with the new source.
    private func restarted(_ restart: SourceContinuity.Restart, of track: RecordingTrackPlan, planned: inout Planned,
                           shared: Lock<Shared>) -> RecordingReport.End? {
        events(.sourceRestarted(track: track.id, reason: restart.reason, lost: restart.lost, gaps: restart.gaps))
        shared.withLock { $0.restarts = max($0.restarts, track.continuity.restarts) }
        guard options.onRestart == .end else { return nil }
        return .sourceRestarted(reason: "\(track.id): the source restarted: \(restart.reason)")
    }

    /// Plans the entries just taken, records them in the timeline log, and queues their fetches.
    /// Returns nil to go on, or `.some(end)` to stop (`.some(nil)`: abandoned, fail-on-gap).
    private func queueFetches(_ taken: [(track: Int, added: Range<Int>, starts: [Double])], planned: inout Planned, into queue: BoundedChannel<PlannedFetch>,
                              shared: Lock<Shared>, log: Lock<RecordingLedger>) async -> RecordingReport.End?? {
        var fetches: [RecordingPlanner.Planned] = []
        var records: [RecordingEntryRecord] = []
        var failure: RecordingReport.End?
        planning: for (track, added, starts) in taken {
            for (index, position) in zip(added, starts) {
                let entry = planned.tracks[track].timeline.entries[index]
                if entry.kind == .missed, options.failOnGap {
                    planned.abandon = HLSError(.liveWindowAdvanced, "Media sequence \(entry.segment.mediaSequence) of \(planned.tracks[track].id) left the live window before it could be fetched; the recording fails rather than list a gap (fail-on-gap), and nothing was committed.")
                    return .some(nil)
                }
                if entry.kind == .restart, options.failOnGap {
                    planned.abandon = HLSError(.sourceRestarted, "The source of \(planned.tracks[track].id) restarted, losing media; the recording fails rather than list a gap (fail-on-gap), and nothing was committed.")
                    return .some(nil)
                }
                let listedIn = planned.tracks[track].latest?.url ?? source.mediaURL
                let sourceSequence = planned.tracks[track].sourceSequence(of: entry)
                do {
                    var items = try planned.tracks[track].planner.plan(entry, listedIn: listedIn, at: position, resources: &planned.resources,
                                                                       sourceSequence: sourceSequence ?? entry.segment.mediaSequence,
                                                                       gapWhenUnavailable: !options.failOnGap)
                    if let parts, let sourceSequence { stage(entry, sourceSequence: sourceSequence, of: planned.tracks[track].stream, in: &items, parts) }
                    fetches += items
                } catch {
                    failure = .failed(code: error.code, reason: error.message)
                    break planning
                }
                if entry.kind == .missed { events(.gap(mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration)) }
                let plan = planned.tracks[track]
                records.append(RecordingEntryRecord(entry, track: plan.id, local: plan.planner.locals[index],
                                                    mapKey: entry.kind == .segment ? RecordingPlanner.mapKey(entry.segment) : nil,
                                                    alignment: plan.alignment?.rawValue, continuity: plan.continuity))
                guard track == 0 else { continue }
                let total = planned.resources
                shared.withLock { shared in
                    let last = shared.marks.last
                    let segment = entry.kind == .segment ? 1 : 0
                    shared.marks.append((total, (last?.duration ?? 0) + entry.segment.duration, (last?.segments ?? 0) + segment,
                                         (last?.gaps ?? 0) + 1 - segment))
                }
            }
        }
        do throws(HLSError) { try log.withLock { log throws(HLSError) in try log.append(records) } } catch {
            // A full or unwritable volume: as for the transfer's writes, nothing is committed and
            // the checkpoints stay, so the same command resumes once there is room.
            planned.abandon = error
            return .some(nil)
        }
        shared.withLock { shared in
            for item in fetches { shared.places[item.fetch.resources[0].identity] = item.path }
        }
        for item in fetches { _ = await queue.send(item.fetch) }
        return failure.map { .some($0) }
    }
}
