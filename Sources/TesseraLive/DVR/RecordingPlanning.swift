#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// The recorder's planning half: reads the reloader's snapshots, adds each to the timeline,
/// plans the new entries' fetches and queues them for the transfer engine (waiting while the
/// queue is full: snapshots coalesce meanwhile), until the recording has what it wants, the
/// playlist ends, the follow stops or the transfer has ended.
struct RecordingPlanning: Sendable {
    let options: LiveRecording.Options
    let source: RecordingSource
    let control: RecordingControl
    /// Told each snapshot's playlist URL and pathway, before its fetches are queued.
    let resolver: LiveURLResolver
    let events: @Sendable (LiveRecording.Event) -> Void

    /// What the planner hands over when it ends.
    struct Planned: Sendable {
        var timeline: RecordingTimeline
        var planner: RecordingPlanner
        var dateRanges = RecordingDateRanges()
        var lastPlaylist: MediaPlaylist?
        var end: RecordingReport.End?
        /// Set when the recording must fail without committing (fail-on-gap).
        var abandon: HLSError?
    }

    /// What the planner, the sink and the progress share.
    struct Shared: Sendable {
        var places: [ResourceIdentity: SafeRelativePath] = [:]
        /// After each planned entry: resources planned, seconds, segments and gaps up to it.
        var marks: [(resources: Int, duration: Double, segments: Int, gaps: Int)] = []
        var retries = 0
    }

    /// Reads snapshots until the recording has what it wants, the playlist ends or the follow
    /// stops, planning each snapshot's new entries, recording them durably in the timeline log
    /// (before any of their fetches is queued: the sink's checkpoint never vouches for a file
    /// the log does not name), then queueing their fetches. `planned` is where it starts (a
    /// fresh timeline, or one restored from a checkpoint).
    func plan(_ channel: SnapshotChannel, into queue: FetchQueue, shared: Lock<Shared>, log: Lock<CheckpointLog<RecordingEntryRecord>>,
              from start: Planned) async -> Planned {
        var planned = start
        var segments = planned.timeline.entries.count(where: { $0.kind == .segment })
        var gaps = planned.timeline.entries.count - segments
        reading: for await snapshot in channel {
            // A stop takes no further segment, whatever the reloader still hands over.
            guard !control.isStopped else { break }
            planned.dateRanges.observe(snapshot.playlist)
            planned.lastPlaylist = snapshot.playlist
            resolver.update(url: snapshot.url ?? source.mediaURL, pathway: snapshot.pathway)
            let step: RecordingTimeline.Step
            do { step = try planned.timeline.take(snapshot.playlist, listedIn: snapshot.url ?? source.mediaURL) } catch {
                planned.end = .failed(code: .sourceChanged, reason: error.message)
                break
            }
            var fetches: [RecordingPlanner.Planned] = []
            var records: [RecordingEntryRecord] = []
            var failure: RecordingReport.End?
            for index in step.added {
                let entry = planned.timeline.entries[index]
                if entry.kind == .missed, options.failOnGap {
                    planned.abandon = HLSError(.liveWindowAdvanced, "Media sequence \(entry.segment.mediaSequence) left the live window before it could be fetched; the recording fails rather than list a gap (fail-on-gap), and nothing was committed.")
                    break reading
                }
                do { fetches += try planned.planner.plan(entry, listedIn: snapshot.url ?? source.mediaURL) } catch {
                    failure = .failed(code: error.code, reason: error.message)
                    break
                }
                if entry.kind == .segment { segments += 1 } else { gaps += 1 }
                if entry.kind == .missed { events(.gap(mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration)) }
                records.append(RecordingEntryRecord(entry, local: planned.planner.locals[index],
                                                    mapKey: entry.kind == .segment ? RecordingPlanner.mapKey(entry.segment) : nil))
                let total = planned.planner.resourceCount
                shared.withLock { shared in
                    shared.marks.append((total, (shared.marks.last?.duration ?? 0) + entry.segment.duration, segments, gaps))
                }
            }
            do throws(HLSError) { try log.withLock { log throws(HLSError) in try log.append(records) } } catch {
                planned.end = .failed(code: error.code, reason: error.message)
                break
            }
            shared.withLock { shared in
                for item in fetches { shared.places[item.fetch.resources[0].identity] = item.path }
            }
            for item in fetches { await queue.push(item.fetch) }
            if let failure {
                planned.end = failure
                break
            }
            if queue.isFinished { break }
            if step.complete {
                planned.end = .duration
                break
            }
            if snapshot.playlist.hasEndList {
                planned.end = .endList
                break
            }
        }
        queue.finish()
        // The fetches still queued or in flight resolve against the playlist the reloader holds:
        // it goes on being told where that is (a pathway move) until the transfer is over and
        // the session ends the follow.
        for await snapshot in channel { resolver.update(url: snapshot.url ?? source.mediaURL, pathway: snapshot.pathway) }
        return planned
    }
}
