#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// The transfer of a recording (`RecordingJob`), on the job's engine into its
/// `RecordingOutput`: the reloaders follow the playlists, the planner turns each snapshot into
/// timeline entries and fetches (`RecordingTimeline`, `RecordingPlanner`) sent to the engine,
/// the engine writes them into the output; after each write the progress, rolling retention
/// and snapshots asked for; at the end, why it ended — for the output's `finish`, which cuts
/// the recording at the last entry whose files were all written.
struct RecordingSession {
    let recording: LiveRecording
    let control: RecordingControl
    let output: RecordingOutput
    let resolver: LiveURLResolver
    let context: JobContext
    let events: @Sendable (LiveRecording.Event) -> Void
    /// The snapshots being verified and published.
    private let publishing = Lock<[Int: Task<Void, Never>]>([:])

    init(recording: LiveRecording, control: RecordingControl, output: RecordingOutput, resolver: LiveURLResolver, context: JobContext,
         events: @escaping @Sendable (LiveRecording.Event) -> Void) {
        self.recording = recording
        self.control = control
        self.output = output
        self.resolver = resolver
        self.context = context
        self.events = events
    }

    func run() async throws(HLSError) {
        let engine = context.engine
        let options = recording.options
        let source = output.source
        let start = output.start
        // (Read in place: a copy of the tracks held while the planner grows them would be copied.)
        let (streams, names) = output.state.withLock { state in
            (state.planned.tracks.map(\.stream), Dictionary(uniqueKeysWithValues: state.planned.tracks.map { ($0.stream, $0.id) }))
        }
        let queue = BoundedChannel<PlannedFetch>(.backPressure(capacity: options.queueCapacity))
        let inbox = SnapshotInbox(tracks: 1 + source.renditions.count)
        let events = self.events
        let notices: @Sendable (LiveRecording.Notice) -> Void = { events(.job($0)) }
        let parts = options.parts.map { parts in
            engine.stagingParts(parts) { stream, msn, reason in
                notices(.partsFellBack(track: names[stream] ?? stream.rawValue, mediaSequence: msn, reason: reason))
            }
        }
        let interstitials = options.interstitials.map { interstitials in
            InterstitialPackager(options: interstitials, selection: options.selection, bounds: options.bounds, client: recording.client,
                                 loader: context.loader, stagingPath: output.writer.staging.stagingPath) { reason in notices(.interstitialFailed(reason: reason)) }
        }
        let follows = follow(into: inbox, streams: streams, parts: parts, interstitials: interstitials)
        control.onStop { for follow in follows { follow.cancel() } }
        let planning = Task { [planner = RecordingPlanning(options: options, source: source, control: control, resolver: resolver,
                                                               parts: parts, events: notices), state = output.state, ledger = output.ledger] in
            await planner.plan(inbox, into: queue, state: state, log: ledger)
        }
        var transferError: HLSError?
        await withTaskCancellationHandler {
            do throws(HLSError) {
                try await engine.run(queue, firstIndex: start.resources, into: output.writer) {
                    wrote(assets: interstitials?.packaged ?? [:])
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
        for task in publishing.withLock({ Array($0.values) }) { await task.value }
        let planned = await planning.value
        let end: RecordingReport.End
        do throws(HLSError) { end = try ending(planned, transferError: transferError) } catch {
            // Nothing is committed: the interstitial in progress stops writing into the staging folder first.
            interstitials?.cancel()
            _ = await interstitials?.finish()
            throw error
        }
        output.ending = (planned, end, await interstitials?.finish() ?? [:], parts?.report)
    }

    /// Why the recording ended, or the failure that commits nothing: a cancellation, an
    /// abandoned recording (fail-on-gap, a volume that cannot take the checkpoints), a full or
    /// unwritable volume, a fetch that failed under fail-on-gap.
    private func ending(_ planned: RecordingPlanning.Planned, transferError: HLSError?) throws(HLSError) -> RecordingReport.End {
        let options = recording.options
        let failure = output.state.withLock { $0.failure }
        if Task.isCancelled { throw HLSError(.cancelled, "The recording to \(recording.destination.path) was cancelled; nothing was committed.") }
        if let abandon = planned.abandon { throw abandon }
        // An eviction that could not be made durable: the volume, as for the transfer's writes.
        if let failure, failure.code == .destinationUnwritable || failure.code == .insufficientSpace { throw failure }
        if let transferError, transferError.code == .destinationUnwritable || transferError.code == .insufficientSpace || transferError.code == .cancelled {
            throw transferError
        }
        if let transferError, options.failOnGap, transferError.code == .fetchFailed || transferError.code == .httpStatus {
            throw HLSError(transferError.code, "\(transferError.message) The recording fails rather than list a gap (fail-on-gap), and nothing was committed.",
                           cause: transferError)
        }
        return if let failure {
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
    private func follow(into inbox: SnapshotInbox, streams: [StreamIdentity], parts: PartStager?,
                        interstitials: InterstitialPackager?) -> [Task<Void, Never>] {
        let options = recording.options
        let source = output.source
        let state = output.state
        var reloadOptions = LiveReloader.Options()
        reloadOptions.outageLimit = options.outageLimit
        reloadOptions.parser = options.parser
        reloadOptions.selection = options.selection
        reloadOptions.sharedSteering = context.steering
        reloadOptions.pollOffset = options.pollOffset
        let events = self.events
        // The primary (the media playlist given, or the variant), then each rendition.
        let choices: [LiveReloader.RenditionChoice?] = [nil] + source.renditions.map(\.choice)
        let reloaders = choices.enumerated().map { track, choice in
            var trackOptions = reloadOptions
            trackOptions.rendition = choice
            let url = choice == nil && source.multivariant == nil ? source.mediaURL : recording.url
            return LiveReloader(url: url, client: recording.client, options: trackOptions) { event in
                if case .retry = event {
                    _ = state.withLock { $0.handle(.retried) }
                    inbox.retrying(track: track)
                }
                events(.job(.reload(event)))
            }
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

    /// After each write: what the recording's state says — the progress, a gap for each segment
    /// its server could not give (and the stop once too many in a row could not), retention, a
    /// snapshot asked for.
    private func wrote(assets: @autoclosure () -> [String: InterstitialPackager.Packaged]) {
        let folder = output.writer
        let written = RecordingState.Written(resources: output.written, bytes: folder.bytesWritten, unavailable: folder.unavailable.count,
                                             lastUnavailable: folder.lastUnavailable, consecutiveUnavailable: folder.consecutiveUnavailable,
                                             snapshotAsked: control.wantsSnapshot)
        for action in output.state.withLock({ $0.handle(.written(written)) }) {
            switch action {
            case .progress(let progress): events(.progress(progress))
            case .unavailable(let track, let mediaSequence, let reason):
                events(.job(.unavailable(track: track, mediaSequence: mediaSequence, reason: reason)))
            case .stop: control.stop()
            case .evict: evict()
            case .publishSnapshot: publishSnapshot(assets: assets())
            case .route, .plan, .restarted, .retire, .over: break
            }
        }
    }

    /// Rolling retention, after each write: evicts what `RecordingEviction` says — durably in the
    /// ledger first, then the folder's checkpoint and files. A failure ends the recording (what it
    /// holds is committed).
    private func evict() {
        guard let retention = recording.options.retention else { return }
        let folder = output.writer, state = output.state, ledger = output.ledger, source = output.source
        let written = output.written
        let primary = RecordingPlanner.primaryTrack
        let records = ledger.withLock { $0.records }
        // Each rendition's margin, as the cut takes it: its alignment and latest target duration.
        let headers = state.withLock { $0.headers }
        var margins: [String: Double] = [:]
        for rendition in source.renditions {
            let alignment = records.last { $0.track == rendition.id }?.alignment.flatMap(RecordingTrackPlan.Alignment.init(rawValue:))
            margins[rendition.id] = alignment?.margin(targetDuration: headers[rendition.id]?.targetDuration) ?? 0
        }
        let plan = RecordingEviction.plan(records, written: written, retention: retention, primary: primary, margins: margins) { folder.size(of: $0) }
        guard !plan.records.isEmpty else { return }
        do throws(HLSError) {
            try ledger.withLock { ledger throws(HLSError) in try ledger.evict(plan.records, bytes: plan.bytes, primary: primary) }
            try folder.evict(Set(plan.files))
        } catch {
            state.withLock { $0.failure = error }
            control.stop()
        }
    }

    /// Publishes the snapshots asked for: staged here, between two writes (no eviction runs
    /// meanwhile), verified and published in their own task. Waits for a first segment.
    private func publishSnapshot(assets: @autoclosure () -> [String: InterstitialPackager.Packaged]) {
        let folder = output.writer, state = output.state, ledger = output.ledger
        let staged: RecordingSnapshotWriter.Staged
        let publication: Int
        do throws(HLSError) {
            let (headers, dateRanges) = state.withLock { ($0.headers, $0.dateRanges) }
            let (records, evictions) = try ledger.withLock { ledger throws(HLSError) in (try ledger.entries(), ledger.evictions) }
            let package = try RecordingPackage(source: output.source, records: records, written: output.written, files: try folder.completeFiles(),
                                               unavailable: folder.unavailable, trimming: false, headers: headers, dateRanges: dateRanges,
                                               evictions: evictions, assets: assets())
            guard package.segments > 0, let taken = control.takeSnapshotRequests() else { return }
            publication = taken
            do throws(HLSError) { staged = try RecordingSnapshotWriter.stage(package, from: output.writer.staging, beside: recording.destination) } catch {
                control.published(.failure(error), publication: publication)
                events(.job(.snapshotFailed(reason: error.message)))
                return
            }
        } catch {
            if let taken = control.takeSnapshotRequests() { control.published(.failure(error), publication: taken) }
            events(.job(.snapshotFailed(reason: error.message)))
            return
        }
        let control = self.control, events = self.events
        // Made under the lock its end takes to remove itself: only the ones running are held.
        let publishing = self.publishing
        publishing.withLock { $0[publication] = Task.detached {
            let result: Result<RecordingSnapshot, HLSError>
            // Every request withdrawn: nothing to publish (checked again once verified).
            do throws(HLSError) { result = .success(try RecordingSnapshotWriter.publish(staged) { control.isAbandoned(publication) }) } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let snapshot):
                state.withLock { $0.snapshots += 1 }
                events(.job(.snapshot(snapshot)))
            case .failure(let error) where error.code == .cancelled: break
            case .failure(let error): events(.job(.snapshotFailed(reason: error.message)))
            }
            control.published(result, publication: publication)
            publishing.withLock { $0[publication] = nil }
        } }
    }
}
