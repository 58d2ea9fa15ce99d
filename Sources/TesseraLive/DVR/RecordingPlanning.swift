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
    /// Where the timeline log is written.
    private let lane = BlockingLane(label: "tessera.recording.timeline")

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

    /// Reads the inbox until the recording has what it wants, handing each item to the
    /// `RecordingState` and doing what it says: routing each track's fetches, planning the new
    /// entries — recorded durably in the timeline log before any of their fetches is queued (the
    /// folder's checkpoint never vouches for a file the log does not name), then queued — saying
    /// restarts, retiring parts. Returns where the planning ended.
    func plan(_ inbox: some AsyncSequence<SnapshotInbox.Item, Never>, into queue: BoundedChannel<PlannedFetch>, state: Lock<RecordingState>,
              log: Lock<RecordingLedger>) async -> Planned {
        reading: for await item in inbox {
            // A stop takes no further segment, whatever the reloaders still hand over.
            let input: RecordingState.Input = control.isStopped ? .stopAsked : self.input(item)
            var taken: [(track: Int, added: Range<Int>, starts: [Double])] = []
            var retired: [StreamIdentity] = []
            var over = false
            for action in state.withLock({ $0.handle(input) }) {
                switch action {
                case .route(let stream, let url, let pathway): resolver.update(stream, url: url, pathway: pathway)
                case .plan(let track, let added, let starts): taken.append((track, added, starts))
                case .restarted(let track, let restart):
                    events(.sourceRestarted(track: track, reason: restart.reason, lost: restart.lost, gaps: restart.gaps))
                case .retire(let stream): retired.append(stream)
                case .over: over = true
                case .progress, .unavailable, .stop, .evict, .publishSnapshot: break
                }
            }
            if !taken.isEmpty, await !queueFetches(taken, into: queue, state: state, log: log) { break }
            for stream in retired { parts?.retire(stream) }
            if over || queue.isFinished { break }
        }
        queue.finish()
        let planned = state.withLock { $0.planned }
        // The fetches still queued or in flight resolve against the playlists the reloaders
        // hold: they go on being told where those are (a pathway move) until the transfer is
        // over and the session ends the follows.
        for await item in inbox {
            guard case .snapshot(let track, let snapshot) = item, let url = snapshot.url else { continue }
            resolver.update(planned.tracks[track].stream, url: url, pathway: snapshot.pathway)
        }
        return planned
    }

    /// The state's input for an inbox item.
    private func input(_ item: SnapshotInbox.Item) -> RecordingState.Input {
        switch item {
        case .snapshot(let track, let snapshot):
            .snapshot(track: track, snapshot, url: snapshot.url ?? (track == 0 ? source.mediaURL : source.renditions[track - 1].url))
        case .retrying(let track): .retrying(track: track)
        case .ended(let track, let failure): .ended(track: track, failure)
        }
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

    /// Plans the entries just taken, records them in the timeline log, and queues their fetches.
    /// Returns false when the planning ends (fail-on-gap, a failed plan, a log that cannot be written).
    private func queueFetches(_ taken: [(track: Int, added: Range<Int>, starts: [Double])], into queue: BoundedChannel<PlannedFetch>,
                              state: Lock<RecordingState>, log: Lock<RecordingLedger>) async -> Bool {
        var fetches: [RecordingPlanner.Planned] = []
        var records: [RecordingEntryRecord] = []
        var failure: RecordingReport.End?
        planning: for (track, added, starts) in taken {
            for (index, position) in zip(added, starts) {
                // The entry and what its planning needs, read in place: a copy of the track held
                // across its planning would make every entry copy the track's whole timeline.
                let (entry, id, stream, listedIn, sourceSequence) = state.withLock { state in
                    let entry = state.planned.tracks[track].timeline.entry(index)
                    return (entry, state.planned.tracks[track].id, state.planned.tracks[track].stream, state.planned.tracks[track].latest?.url,
                            state.planned.tracks[track].sourceSequence(of: entry))
                }
                if options.failOnGap, entry.kind == .missed || entry.kind == .restart {
                    let error = entry.kind == .missed
                        ? HLSError(.liveWindowAdvanced, "Media sequence \(entry.segment.mediaSequence) of \(id) left the live window before it could be fetched; the recording fails rather than list a gap (fail-on-gap), and nothing was committed.")
                        : HLSError(.sourceRestarted, "The source of \(id) restarted, losing media; the recording fails rather than list a gap (fail-on-gap), and nothing was committed.")
                    _ = state.withLock { $0.handle(.abandoned(error)) }
                    return false
                }
                let planned: (fetches: [RecordingPlanner.Planned], record: RecordingEntryRecord)
                do throws(HLSError) {
                    planned = try state.withLock { state throws(HLSError) in
                        try state.plan(entry: index, of: track, at: position, listedIn: listedIn ?? source.mediaURL,
                                       gapWhenUnavailable: !options.failOnGap)
                    }
                } catch {
                    failure = .failed(code: error.code, reason: error.message)
                    break planning
                }
                var items = planned.fetches
                if let parts, let sourceSequence { stage(entry, sourceSequence: sourceSequence, of: stream, in: &items, parts) }
                fetches += items
                records.append(planned.record)
                if entry.kind == .missed { events(.gap(mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration)) }
            }
        }
        let logged = records
        // Its fsync on a lane of its own: a stalled disk holds up this recording alone.
        do throws(HLSError) { try await lane.run { () throws(HLSError) in try log.withLock { log throws(HLSError) in try log.append(logged) } } } catch {
            // A full or unwritable volume: as for the transfer's writes, nothing is committed and
            // the checkpoints stay, so the same command resumes once there is room.
            _ = state.withLock { $0.handle(.abandoned(error)) }
            return false
        }
        for item in fetches {
            // A stop takes no further segment: a window of thousands planned at once (a hostile
            // playlist, a recording from a long window's start) is not fetched to its end. The
            // entries logged and not fetched are cut at the commit, dropped on a resume.
            if control.isStopped { break }
            _ = await queue.send(item.fetch)
        }
        if let failure { state.withLock { $0.end(failure) } }
        return failure == nil
    }
}
