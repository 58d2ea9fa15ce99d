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
    let ledger: RecordingLedger
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
        var urls = [StreamIdentity.main: source.mediaURL]
        for (track, rendition) in zip(start.planned.tracks.dropFirst(), source.renditions) { urls[track.stream] = rendition.url }
        let resolver = LiveURLResolver(urls: urls, clock: ElapsedClock(clock))
        let engine = options.bounds.engine(fetcher: fetcher, resolver: resolver, keys: KeyCache(fetcher: fetcher, resolver: resolver),
                                           preparation: .validatedFiles, spillFolder: paths.spill, clock: clock)
        let queue = BoundedChannel<PlannedFetch>(.backPressure(capacity: options.queueCapacity))
        let inbox = SnapshotInbox(tracks: 1 + source.renditions.count)
        let streams = start.planned.tracks.map(\.stream)
        let names = Dictionary(uniqueKeysWithValues: start.planned.tracks.map { ($0.stream, $0.id) })
        let events = self.events
        let parts = options.parts.map { parts in
            PartStager(options: parts, processor: engine.processor, spillFolder: paths.spill) { stream, msn, reason in
                events(.partsFellBack(track: names[stream] ?? stream.rawValue, mediaSequence: msn, reason: reason))
            }
        }
        let interstitials = options.interstitials.map { interstitials in
            InterstitialPackager(options: interstitials, selection: options.selection, bounds: options.bounds, client: recording.client, fetcher: fetcher,
                                 stagingPath: staging.stagingPath) { reason in events(.interstitialFailed(reason: reason)) }
        }
        let follows = follow(into: inbox, shared: shared, streams: streams, parts: parts, interstitials: interstitials)
        control.onStop { for follow in follows { follow.cancel() } }
        let ledger = Lock(self.ledger)
        let planning = Task { [planner = RecordingPlanning(options: options, source: source, control: control, resolver: resolver,
                                                               parts: parts, events: events)] in
            await planner.plan(inbox, into: queue, shared: shared, log: ledger, from: start.planned)
        }
        var transferError: HLSError?
        await withTaskCancellationHandler {
            do throws(HLSError) {
                try await engine.run(queue, firstIndex: start.resources, into: sink) {
                    progress(sink, shared, offset: start.offset)
                    evict(sink, shared, ledger, offset: start.offset)
                    snapshotIfAsked(sink, shared, ledger, offset: start.offset, assets: interstitials?.packaged ?? [:])
                }
            } catch {
                transferError = error
            }
        } onCancel: {
            for follow in follows { follow.cancel() }
            queue.finish()
            interstitials?.cancel()
        }
        for follow in follows { follow.cancel() }
        queue.finish()
        parts?.finish()
        control.end()
        for task in shared.withLock({ Array($0.publishing.values) }) { await task.value }
        let planned = await planning.value
        let end: RecordingReport.End
        do throws(HLSError) { end = try ending(planned, transferError: transferError, shared: shared) } catch {
            // Nothing is committed: the interstitial in progress stops writing into the staging folder first.
            interstitials?.cancel()
            _ = await interstitials?.finish()
            throw error
        }
        let assets = await interstitials?.finish() ?? [:]
        var report = try commit(planned, written: sink.resourcesDone + start.offset, sink: sink, end: end, shared: shared, assets: assets)
        report.parts = parts?.report
        if options.interstitials == nil { report.interstitials = nil }
        return report
    }

    /// Why the recording ended, or the failure that commits nothing: a cancellation, an
    /// abandoned recording (fail-on-gap, a volume that cannot take the checkpoints), a full or
    /// unwritable volume, a fetch that failed under fail-on-gap.
    private func ending(_ planned: RecordingPlanning.Planned, transferError: HLSError?, shared: Lock<RecordingPlanning.Shared>) throws(HLSError)
        -> RecordingReport.End {
        let options = recording.options
        if Task.isCancelled { throw HLSError(.cancelled, "The recording to \(recording.destination.path) was cancelled; nothing was committed.") }
        if let abandon = planned.abandon { throw abandon }
        // An eviction that could not be made durable: the volume, as for the transfer's writes.
        if let failure = shared.withLock({ $0.failure }), failure.code == .destinationUnwritable || failure.code == .insufficientSpace { throw failure }
        if let transferError, transferError.code == .destinationUnwritable || transferError.code == .insufficientSpace || transferError.code == .cancelled {
            throw transferError
        }
        if let transferError, options.failOnGap, transferError.code == .fetchFailed || transferError.code == .httpStatus {
            throw HLSError(transferError.code, "\(transferError.message) The recording fails rather than list a gap (fail-on-gap), and nothing was committed.",
                           cause: transferError)
        }
        return if let failure = shared.withLock({ $0.failure }) {
            .failed(code: failure.code, reason: failure.message)
        } else if let transferError {
            .failed(code: transferError.code, reason: transferError.message)
        } else if let end = planned.end {
            end
        } else if control.isStopped {
            .stopped
        } else {
            .endList
        }
    }

    /// One reloader a track — the primary's from the media playlist (or from the multivariant
    /// one, to follow Content Steering: failover to the same STABLE-VARIANT-ID on another
    /// pathway), each rendition's from the multivariant playlist (the same variant chosen, its
    /// rendition of that TYPE and NAME: failover by STABLE-RENDITION-ID) — each handing its
    /// snapshots, retries and end to `inbox`. The tasks are the follows; cancelling one ends it.
    private func follow(into inbox: SnapshotInbox, shared: Lock<RecordingPlanning.Shared>, streams: [StreamIdentity],
                        parts: PartStager?, interstitials: InterstitialPackager?) -> [Task<Void, Never>] {
        let options = recording.options
        var reloadOptions = LiveReloader.Options()
        reloadOptions.outageLimit = options.outageLimit
        reloadOptions.parser = options.parser
        reloadOptions.selection = options.selection
        let events = self.events
        var reloaders = [LiveReloader(url: source.multivariant == nil ? source.mediaURL : recording.url, client: recording.client,
                                      options: reloadOptions) { event in
            if case .retry = event {
                shared.withLock { $0.retries += 1 }
                inbox.retrying(track: 0)
            }
            events(.reload(event))
        }]
        for (index, rendition) in source.renditions.enumerated() {
            var renditionOptions = reloadOptions
            renditionOptions.rendition = rendition.choice
            reloaders.append(LiveReloader(url: recording.url, client: recording.client, options: renditionOptions) { event in
                if case .retry = event {
                    shared.withLock { $0.retries += 1 }
                    inbox.retrying(track: index + 1)
                }
                events(.reload(event))
            })
        }
        let mediaURL = source.mediaURL
        return reloaders.enumerated().map { track, reloader in
            let channel = SnapshotChannel()
            let follow = Task { () -> HLSError? in
                do throws(HLSError) { try await reloader.run(into: channel) } catch { return error }
                return nil
            }
            Task {
                for await snapshot in channel {
                    // Parts are staged as soon as they are listed, before the planner sees them.
                    parts?.observe(snapshot.playlist, stream: streams[track])
                    if track == 0 { interstitials?.observe(snapshot.playlist, listedIn: snapshot.url ?? mediaURL) }
                    inbox.send(snapshot, track: track)
                }
                inbox.end(track: track, failure: await follow.value)
            }
            return Task {
                await withTaskCancellationHandler { _ = await follow.value } onCancel: { follow.cancel() }
            }
        }
    }

    /// The tracks the recording starts with — the primary, then one for each rendition — each
    /// going on after its own `records`.
    private func tracks(restoring records: [RecordingEntryRecord], start: RecordingTimeline.Start, limit: Double?) -> [RecordingTrackPlan] {
        func plan(_ id: String, _ role: PackageTrack.Role, rendition: Int?) -> RecordingTrackPlan {
            let own = records.filter { $0.track == id }
            let timeline = RecordingTimeline(start: rendition == nil ? start : .windowStart, limit: rendition == nil ? limit : nil,
                                             restoring: own.compactMap(\.entry))
            return RecordingTrackPlan(id: id, role: role, rendition: rendition, timeline: timeline, restoring: own)
        }
        return [plan(RecordingPlanner.primaryTrack, .video, rendition: nil)] + source.renditions.map { plan($0.id, $0.role, rendition: $0.index) }
    }

    /// Where the recording starts: what the checkpoint vouches for — the timeline entries whose
    /// every resource the sink's checkpoint holds, with files that still give their recorded
    /// sizes and SHA-256 — restored into the sink and the planner; else nothing (a fresh start).
    /// - Throws: `destination-unwritable`; `source-changed` when a restored file no longer
    ///   matches its checkpoint (the caller starts over).
    /// (`resources`: the index the transfer goes on from; `offset`: resources evicted before it,
    /// which the sink no longer counts.)
    private func restore(into sink: ResourceFileSink, shared: Lock<RecordingPlanning.Shared>) throws(HLSError)
        -> (planned: RecordingPlanning.Planned, resources: Int, offset: Int) {
        let options = recording.options
        let limit = options.duration.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        let start: RecordingTimeline.Start = options.start == .now ? .now : .windowStart
        let files = log.restorable
        let present = Set(files.map(\.path))
        // Resources are written in order, a file each: the entries (not evicted) whose files all
        // have records — the first that does not, or does not read back as an entry, ends what
        // the checkpoint proves.
        let evictions = ledger.evictions
        let records = Array(ledger.timeline.restorable.filter { !evictions.covers($0) }.prefix { record in
            record.entry != nil && RecordingEviction.paths(of: record).allSatisfy(present.contains)
        })
        let named = Set(records.flatMap(RecordingEviction.paths))
        let kept = files.filter { named.contains($0.path) }
        let done = try sink.restore(kept)
        guard done.count == kept.count, kept.count == named.count else {
            throw HLSError(.sourceChanged, "The recording's files at \(paths.partial) no longer match its checkpoint.")
        }
        try ledger.reset(keeping: records)
        let primary = RecordingPlanner.primaryTrack
        var segments = 0, gaps = 0, duration = 0.0
        shared.withLock { shared in
            for record in records where record.track == primary {
                if record.kind == "segment" { segments += 1 } else { gaps += 1 }
                duration += record.duration
                shared.marks.append((record.resourcesEnd, duration, segments, gaps))
            }
        }
        if !records.isEmpty { events(.resumed(segments: segments, gaps: gaps, bytes: sink.restoredBytes)) }
        let resources = records.last?.resourcesEnd ?? 0
        let planned = RecordingPlanning.Planned(tracks: tracks(restoring: records, start: start, limit: limit), resources: resources)
        return (planned, resources, resources - kept.count)
    }

    /// Reports where the written files are, and each segment that could not be fetched; ends the
    /// recording once `maximumConsecutiveUnavailable` in a row could not.
    private func progress(_ sink: ResourceFileSink, _ shared: Lock<RecordingPlanning.Shared>, offset: Int) {
        let written = sink.resourcesDone + offset
        let unavailable = sink.unavailable.count
        let (mark, planned, retries, new) = shared.withLock { shared in
            defer { shared.unavailableReported = unavailable }
            let index = shared.marks.lastIndex { $0.resources <= written }
            let mark = index.map { shared.marks[$0] }
            // Marks before the last one written are never looked at again.
            if let index, index > 0 { shared.marks.removeFirst(index) }
            return (mark, shared.marks.last, shared.retries, unavailable > shared.unavailableReported)
        }
        if new, let (identity, error) = sink.lastUnavailable {
            let track = identity.stream == .main ? RecordingPlanner.primaryTrack : identity.stream.rawValue
            events(.unavailable(track: track, mediaSequence: identity.mediaSequence, reason: error.message))
            if sink.consecutiveUnavailable >= LiveRecording.maximumConsecutiveUnavailable {
                let failure = HLSError(error.code, "\(sink.consecutiveUnavailable) segments in a row could not be fetched; the source is taken to be gone. The last: \(error.message)", cause: error)
                shared.withLock { $0.failure = failure }
                control.stop()
            }
        }
        events(.progress(RecordingProgress(duration: mark?.duration ?? 0, segments: mark?.segments ?? 0, gaps: (mark?.gaps ?? 0) + unavailable, retries: retries,
                                           bytes: sink.bytesWritten, edgeLag: max(0, (planned?.duration ?? 0) - (mark?.duration ?? 0)))))
    }

    /// Rolling retention, after each write: evicts what `RecordingEviction` says — durably in the
    /// ledger first, then the sink's checkpoint and files. A failure ends the recording (what it
    /// holds is committed).
    private func evict(_ sink: ResourceFileSink, _ shared: Lock<RecordingPlanning.Shared>, _ ledger: Lock<RecordingLedger>, offset: Int) {
        guard let retention = recording.options.retention else { return }
        let written = sink.resourcesDone + offset
        let primary = RecordingPlanner.primaryTrack
        let records = ledger.withLock { $0.records }
        // Each rendition's margin, as the cut takes it: its alignment and latest target duration.
        let headers = shared.withLock { $0.headers }
        var margins: [String: Double] = [:]
        for rendition in source.renditions {
            let alignment = records.last { $0.track == rendition.id }?.alignment.flatMap(RecordingTrackPlan.Alignment.init(rawValue:))
            margins[rendition.id] = alignment?.margin(targetDuration: headers[rendition.id]?.targetDuration) ?? 0
        }
        let plan = RecordingEviction.plan(records, written: written, retention: retention, primary: primary, margins: margins) { sink.size(of: $0) }
        guard !plan.records.isEmpty else { return }
        do throws(HLSError) {
            try ledger.withLock { ledger throws(HLSError) in try ledger.evict(plan.records, bytes: plan.bytes, primary: primary) }
            try sink.evict(Set(plan.files))
        } catch {
            shared.withLock { $0.failure = error }
            control.stop()
        }
    }

    /// Publishes the snapshots asked for: staged here, between two writes (no eviction runs
    /// meanwhile), verified and published in their own task. Waits for a first segment.
    private func snapshotIfAsked(_ sink: ResourceFileSink, _ shared: Lock<RecordingPlanning.Shared>, _ ledger: Lock<RecordingLedger>, offset: Int,
                                 assets: @autoclosure () -> [String: InterstitialPackager.Packaged]) {
        guard control.wantsSnapshot else { return }
        let staged: RecordingSnapshotWriter.Staged
        let publication: Int
        do throws(HLSError) {
            let state = shared.withLock { $0 }
            let (records, evictions) = ledger.withLock { ($0.records, $0.evictions) }
            let package = try RecordingPackage(source: source, records: records, written: sink.resourcesDone + offset, files: try sink.completeFiles(),
                                               unavailable: sink.unavailable, trimming: false, shared: state, evictions: evictions,
                                               assets: assets())
            guard package.segments > 0, let taken = control.takeSnapshotRequests() else { return }
            publication = taken
            do throws(HLSError) { staged = try RecordingSnapshotWriter.stage(package, from: staging, beside: recording.destination) } catch {
                control.published(.failure(error), publication: publication)
                events(.snapshotFailed(reason: error.message))
                return
            }
        } catch {
            if let taken = control.takeSnapshotRequests() { control.published(.failure(error), publication: taken) }
            events(.snapshotFailed(reason: error.message))
            return
        }
        let control = self.control, events = self.events
        // Made under the lock its end takes to remove itself: only the ones running are held.
        shared.withLock { $0.publishing[publication] = Task.detached {
            let result: Result<RecordingSnapshot, HLSError>
            // Every request withdrawn: nothing to publish (checked again once verified).
            do throws(HLSError) { result = .success(try RecordingSnapshotWriter.publish(staged) { control.isAbandoned(publication) }) } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let snapshot):
                shared.withLock { $0.snapshots += 1 }
                events(.snapshot(snapshot))
            case .failure(let error) where error.code == .cancelled: break
            case .failure(let error): events(.snapshotFailed(reason: error.message))
            }
            control.published(result, publication: publication)
            shared.withLock { $0.publishing[publication] = nil }
        } }
    }

    /// Cuts the recording at the last primary entry whose resources were all written — and each
    /// rendition at its last written entry that starts before the primary's end — and commits it.
    /// Files written past the cut (a map or a rendition segment beyond it) are removed.
    private func commit(_ planned: RecordingPlanning.Planned, written: Int, sink: ResourceFileSink, end: RecordingReport.End,
                        shared: Lock<RecordingPlanning.Shared>, assets: [String: InterstitialPackager.Packaged]) throws(HLSError) -> RecordingReport {
        let state = shared.withLock { $0 }
        let files = try sink.finish()
        let package = try RecordingPackage(source: source, records: ledger.records, written: written, files: files, unavailable: sink.unavailable,
                                           trimming: state.failure != nil, shared: state, evictions: ledger.evictions, assets: assets)
        guard package.segments > 0 else {
            let why: String = switch end {
            case .failed(_, let reason): reason
            case .stopped: "it was stopped first"
            case .sourceRestarted(let reason): reason
            case .endList: "the playlist ended first"
            case .duration: "no segment was listed"
            }
            throw HLSError(.nothingRecorded, "Nothing was recorded to \(recording.destination.path): \(why)")
        }
        let referenced = Set(package.media.map(\.path.value))
        for file in files where !referenced.contains(file.path.value) { staging.remove(file.path) }
        // Interstitial assets no kept Date Range names go too (no folder: none was packaged).
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: staging.stagingPath + "/" + InterstitialPackager.folder) {
            for entry in entries where !package.assetFolders.contains(InterstitialPackager.folder + "/" + entry) {
                FolderTree.remove(at: staging.stagingPath + "/" + InterstitialPackager.folder + "/" + entry)
            }
            if package.assetFolders.isEmpty { FolderTree.remove(at: staging.stagingPath + "/" + InterstitialPackager.folder) }
        }
        try PackageWriter.writeEmpty(package.gapFiles, in: staging)
        let manifest = try PackageWriter.finish(package.contents, media: package.media, in: staging)
        do { _ = try staging.commit() } catch { throw HLSError(destination: error) }
        // Gaps of every track: a hole in the audio is one too.
        let tracks = package.tracks
        return RecordingReport(destination: recording.destination, end: end, segments: package.segments, duration: package.primary.duration,
                               gaps: tracks.reduce(0) { $0 + $1.recorderGaps },
                               originGaps: tracks.reduce(0) { total, track in total + track.entries.count { $0.kind == .originGap } },
                               dateRangesOmitted: package.dateRangesOmitted, retries: state.retries,
                               bytes: package.media.reduce(0) { $0 + $1.byteCount }, evicted: ledger.evictions.segments,
                               evictedDuration: ledger.evictions.duration, evictedBytes: ledger.evictions.bytes, snapshots: state.snapshots,
                               restarts: state.restarts, interstitials: package.interstitials, manifest: manifest)
    }
}
