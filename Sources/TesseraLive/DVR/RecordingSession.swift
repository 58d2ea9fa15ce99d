#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// One run of a `LiveRecording` with its destination locked and its staging folder made: the
/// reloader follows the playlist, the planner turns each snapshot into timeline entries and
/// fetches (`RecordingTimeline`, `RecordingPlanner`) queued for the transfer engine, the engine
/// writes them into the per-resource sink; when the recording ends, it is cut at the last entry
/// whose files were all written, and the track's playlist, `master.m3u8` and the manifests are
/// written and committed.
struct RecordingSession {
    let recording: LiveRecording
    let source: RecordingSource
    let paths: DownloadPaths
    let staging: StagingDirectory
    let log: CheckpointLog<ResourceFileRecord>
    let timelineLog: CheckpointLog<RecordingEntryRecord>
    let fetcher: ResourceFetcher
    let control: RecordingControl
    let events: @Sendable (LiveRecording.Event) -> Void

    func run() async throws(HLSError) -> RecordingReport {
        let options = recording.options
        let clock = recording.client.clock
        let shared = Lock(RecordingPlanning.Shared())
        // A checkpoint after every resource: live segments arrive seconds apart, and one lost to
        // a crash may have left the window by the time the recording is resumed.
        let sink = ResourceFileSink(staging: staging, checkpoint: log, spillFolder: paths.spill, checkpointBytes: 1,
                                    clock: clock) { resource throws(HLSError) -> SafeRelativePath in
            guard let path = shared.withLock({ $0.places.removeValue(forKey: resource.identity) }) else {
                throw HLSError(.destinationUnwritable, "\(resource.label) has no place in the recording.")
            }
            return path
        }
        let start = try restore(into: sink, shared: shared)
        let resolver = LiveURLResolver(url: source.mediaURL, pathway: nil, clock: ElapsedClock(clock))
        let engine = options.bounds.engine(fetcher: fetcher, resolver: resolver, keys: KeyCache(fetcher: fetcher, resolver: resolver),
                                           preparation: .asFetched, spillFolder: paths.spill, clock: clock)
        let queue = FetchQueue(capacity: max(1, options.queueCapacity))
        let channel = SnapshotChannel()
        var reloadOptions = LiveReloader.Options()
        reloadOptions.outageLimit = options.outageLimit
        reloadOptions.parser = options.parser
        reloadOptions.selection = options.selection
        let events = self.events
        // From a multivariant playlist the reloader chooses the same variant and follows Content
        // Steering (failover to the same STABLE-VARIANT-ID on another pathway); each snapshot's
        // URL resolves its segments.
        let followed = source.multivariant == nil ? source.mediaURL : recording.url
        let reloader = LiveReloader(url: followed, client: recording.client, options: reloadOptions) { event in
            if case .retry = event { shared.withLock { $0.retries += 1 } }
            events(.reload(event))
        }
        let follow = Task { () -> HLSError? in
            do throws(HLSError) { try await reloader.run(into: channel) } catch { return error }
            return nil
        }
        control.onStop { follow.cancel() }
        let timelineLog = Lock(self.timelineLog)
        let planning = Task { [planner = RecordingPlanning(options: options, source: source, control: control, resolver: resolver, events: events)] in
            await planner.plan(channel, into: queue, shared: shared, log: timelineLog, from: start.planned)
        }
        var transferError: HLSError?
        await withTaskCancellationHandler {
            do throws(HLSError) {
                try await engine.run(queue, firstIndex: start.resources, into: sink) { progress(sink, shared) }
            } catch {
                transferError = error
            }
        } onCancel: {
            follow.cancel()
            queue.finish()
        }
        follow.cancel()
        queue.finish()
        let planned = await planning.value
        let followError = await follow.value
        if Task.isCancelled { throw HLSError(.cancelled, "The recording to \(recording.destination.path) was cancelled; nothing was committed.") }
        if let abandon = planned.abandon { throw abandon }
        if let transferError, transferError.code == .destinationUnwritable || transferError.code == .insufficientSpace || transferError.code == .cancelled {
            throw transferError
        }
        let end: RecordingReport.End = if let transferError {
            .failed(code: transferError.code, reason: transferError.message)
        } else if let end = planned.end {
            end
        } else if control.isStopped {
            .stopped
        } else if let followError, followError.code != .cancelled {
            .failed(code: followError.code, reason: followError.message)
        } else {
            .endList
        }
        return try commit(planned, written: sink.resourcesDone, sink: sink, end: end, retries: shared.withLock { $0.retries })
    }

    /// Where the recording starts: what the checkpoint vouches for — the timeline entries whose
    /// every resource the sink's checkpoint holds, with files that still give their recorded
    /// sizes and SHA-256 — restored into the sink and the planner; else nothing (a fresh start).
    /// - Throws: `destination-unwritable`; `source-changed` when a restored file no longer
    ///   matches its checkpoint (the caller starts over).
    private func restore(into sink: ResourceFileSink, shared: Lock<RecordingPlanning.Shared>) throws(HLSError) -> (planned: RecordingPlanning.Planned, resources: Int) {
        let options = recording.options
        let limit = options.duration.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        let start: RecordingTimeline.Start = options.start == .now ? .now : .windowStart
        let files = log.restorable
        // Resources are written in order, a file each: the entries whose resources all have records.
        // (A record that does not read back as an entry ends what the checkpoint proves.)
        let records = Array(timelineLog.restorable.prefix { $0.resourcesEnd <= files.count && $0.entry != nil })
        let track = RecordingPlanner.primaryTrack
        let named = Set(records.flatMap { record in [track + "/" + record.name] + (record.map.map { [track + "/" + $0] } ?? []) })
        let kept = files.filter { named.contains($0.path) }
        let done = try sink.restore(kept)
        guard done.count == kept.count, kept.count == records.last?.resourcesEnd ?? 0 else {
            throw HLSError(.sourceChanged, "The recording's files at \(paths.partial) no longer match its checkpoint.")
        }
        try timelineLog.reset(keeping: records)
        let entries = records.compactMap(\.entry)
        var segments = 0, gaps = 0, duration = 0.0
        shared.withLock { shared in
            for record in records {
                if record.kind == "segment" { segments += 1 } else { gaps += 1 }
                duration += record.duration
                shared.marks.append((record.resourcesEnd, duration, segments, gaps))
            }
        }
        if !records.isEmpty { events(.resumed(segments: segments, gaps: gaps, bytes: sink.restoredBytes)) }
        let planned = RecordingPlanning.Planned(timeline: RecordingTimeline(start: start, limit: limit, restoring: entries),
                                                planner: RecordingPlanner(track: track, stream: .main, restoring: records))
        return (planned, kept.count)
    }

    /// Reports where the written files are.
    private func progress(_ sink: ResourceFileSink, _ shared: Lock<RecordingPlanning.Shared>) {
        let written = sink.resourcesDone
        let (mark, planned, retries) = shared.withLock { shared in
            (shared.marks.last { $0.resources <= written }, shared.marks.last, shared.retries)
        }
        events(.progress(RecordingProgress(duration: mark?.duration ?? 0, segments: mark?.segments ?? 0, gaps: mark?.gaps ?? 0, retries: retries,
                                           bytes: sink.bytesWritten, edgeLag: max(0, (planned?.duration ?? 0) - (mark?.duration ?? 0)))))
    }

    /// Cuts the recording at the last entry whose resources were all written and commits it.
    private func commit(_ planned: RecordingPlanning.Planned, written: Int, sink: ResourceFileSink, end: RecordingReport.End, retries: Int) throws(HLSError) -> RecordingReport {
        let locals = planned.planner.locals
        let count = locals.prefix { $0.resourcesEnd <= written }.count
        let track = RecordedTrack(id: planned.planner.track, entries: planned.timeline.entries.prefix(count), locals: locals.prefix(count),
                                  source: planned.lastPlaylist ?? MediaPlaylist())
        let segments = track.entries.count(where: { $0.kind == .segment })
        guard segments > 0 else {
            let why: String = switch end {
            case .failed(_, let reason): reason
            case .stopped: "it was stopped first"
            case .endList: "the playlist ended first"
            case .duration: "no segment was listed"
            }
            throw HLSError(.nothingRecorded, "Nothing was recorded to \(recording.destination.path): \(why)")
        }
        let media = try sink.finish()
        let sizes = Dictionary(media.map { ($0.path.value, $0.byteCount) }, uniquingKeysWith: { first, _ in first })
        var peak: UInt64 = 0
        for (entry, local) in zip(track.entries, track.locals) where entry.kind == .segment && entry.segment.duration > 0 {
            let bits = Double(sizes[track.id + "/" + local.uri] ?? 0) * 8 / entry.segment.duration
            peak = max(peak, UInt64(bits.rounded(.up)))
        }
        let span = track.dateSpan
        let (ranges, omitted) = planned.dateRanges.kept(from: span?.start, to: span?.end)
        let variant = source.variant.flatMap { source.multivariant?.variants[$0] }
        let info = track.info(provenance: source.provenance, variant: variant, bandwidth: peak)
        let contents = PackageContents(kind: .recording, tracks: [(info, try track.playlistText(dateRanges: ranges))],
                                       masterText: try RecordedTrack.master(source, playlist: track.playlistPath, bandwidth: peak),
                                       owners: Dictionary(media.map { ($0.path.value, track.id) }, uniquingKeysWith: { first, _ in first }),
                                       gaps: track.gaps)
        let manifest = try PackageWriter.finish(contents, media: media, in: staging)
        do { _ = try staging.commit() } catch { throw HLSError(destination: error) }
        let gaps = track.entries.count(where: { $0.kind == .missed })
        return RecordingReport(destination: recording.destination, end: end, segments: segments, duration: track.duration, gaps: gaps,
                               originGaps: track.entries.count(where: { $0.kind == .originGap }), dateRangesOmitted: omitted, retries: retries,
                               bytes: media.reduce(0) { $0 + $1.byteCount }, manifest: manifest)
    }
}
