#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// Downloads an HLS VOD into one file: the playlist (a variant chosen from a multivariant one),
/// a plan refused before any media byte when it cannot become one correct file, keys fetched
/// once each while in use, media fetched in parallel (bounded) and written strictly in order
/// after AES-128 decryption and container checks, durable checkpoints so a later run resumes,
/// and an atomic publication once the whole file passes its validator. Nothing ever appears at
/// the destination unless the job succeeds; transient failures keep a hidden partial file and
/// its checkpoint beside it for the next run. Every request goes through the caller's
/// `HLSClient`. A planner on `MediaJob`, whose output is the `SingleFileAssembler`.
public struct SingleFileDownload: Sendable {
    private let playlistURL: URL
    package let destination: URL
    private let options: Options
    private let client: HLSClient

    /// A job that downloads `playlistURL` into `destination` through `client`.
    public init(playlistURL: URL, destination: URL, client: HLSClient, options: Options = Options()) {
        self.playlistURL = playlistURL
        self.destination = destination
        self.options = options
        self.client = client
    }

    /// A job over `transport` with the default HLS policies.
    public init(playlistURL: URL, destination: URL, transport: any HTTPTransport, options: Options = Options()) {
        self.init(playlistURL: playlistURL, destination: destination, client: HLSClient(transport: transport), options: options)
    }

    /// Loads and plans without fetching media, keys or touching the destination; `events` hears
    /// the playlists' retries.
    /// - Throws: as `run`, for the playlist and plan stages.
    public func plan(events: (@Sendable (Event) -> Void)? = nil) async throws(HLSError) -> DownloadPlanSummary {
        try await MediaJob(self, client: client).plan(events: events)
    }

    /// The plan `plan(events:)` summarises, for a `run(planned:events:)` that follows; with
    /// `memo`, the playlists another plan of this decision read are not fetched again.
    /// - Throws: as `plan(events:)`.
    package func planned(events: (@Sendable (Event) -> Void)? = nil, memo: PlaylistMemo? = nil) async throws(HLSError) -> Planned {
        try await MediaJob(self, client: client).planned(events: events, memo: memo)
    }

    /// Runs the job, its first attempt on `planned` when given (its playlists not loaded again).
    /// - Throws: as `run(events:)`.
    package func run(planned: Planned?, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> DownloadReport {
        try await MediaJob(self, client: client).run(planned: planned, events: events)
    }

    /// Runs the job; `events` may be called from several threads.
    /// - Throws: `HLSError`: `destination-exists`, `destination-unwritable`, `destination-busy`,
    ///   `insufficient-space`, `fetch-failed`, `http-status`, `invalid-playlist`,
    ///   `no-matching-variant`, `unsupported`, `bad-key`, `decrypt-failed`, `malformed-media`,
    ///   `budget-exceeded`, `source-changed` (twice in one run), `cancelled`.
    public func run(events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(HLSError) -> DownloadReport {
        try await MediaJob(self, client: client).run(events: events)
    }

    /// A loaded and planned playlist.
    package struct Planned: Sendable {
        let plan: DownloadPlan
        let url: URL
        let loaded: PlaylistLoader.Loaded
        let prefetched: SessionKeyPrefetch?
    }
}

extension SingleFileDownload: JobPlanner {
    package var settings: JobSettings {
        JobSettings(noun: "download", bounds: options.bounds, resumes: options.resumes, steeringPenalty: options.steeringPenalty,
                    overwrite: options.overwrite)
    }

    package func plan(_ loader: PlaylistLoader, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> Planned {
        let prefetch = Lock<SessionKeyPrefetch?>(nil)
        let prefetches = options.prefetchSessionKeys
        let loaded = try await loader.loadMediaPlaylist(playlistURL, choosing: options.variant,
                                                                                  capabilities: options.capabilities) { multivariant, url in
            guard prefetches, !multivariant.sessionKeys.isEmpty else { return }
            prefetch.withLock { $0 = SessionKeyPrefetch(multivariant, url: url, loader: loader) }
        }
        let plan = try DownloadPlan(playlist: loaded.playlist, baseURL: loaded.url, maximumCoalescedBytes: options.maximumCoalescedBytes)
        return Planned(plan: plan, url: loaded.url, loaded: loaded, prefetched: prefetch.withLock { $0 })
    }

    package func summary(of planned: Planned) -> DownloadPlanSummary {
        let plan = planned.plan
        let estimate = plan.knownBytes == nil ? planned.loaded.bandwidth.map { UInt64(Double($0) / 8 * plan.duration) } : nil
        var summary = DownloadPlanSummary(container: plan.container.rawValue, variant: planned.loaded.variant, segments: plan.segmentCount,
                                          resources: plan.resourceCount, requests: plan.requestCount, keys: plan.keyCount,
                                          knownBytes: plan.knownBytes, estimatedBytes: estimate, duration: plan.duration)
        summary.discontinuities = planned.loaded.playlist.segments.count { $0.isDiscontinuity }
        return summary
    }

    package func fingerprint(of planned: Planned) -> String { planned.plan.fingerprint.hex }

    package func sizes(of planned: Planned) -> (known: UInt64?, largestRange: UInt64?) { (planned.plan.knownBytes, planned.plan.largestRange) }

    /// The variant on the steering pathway when the presentation steers and the variant has a
    /// STABLE-VARIANT-ID (else a warning: no mid-transfer failover).
    package func steering(of planned: Planned, events: @escaping @Sendable (Event) -> Void) -> JobSteering? {
        guard options.steering, let chosen = planned.loaded.multivariant, let steering = chosen.playlist.contentSteering else { return nil }
        guard let stableId = chosen.variant.stableVariantId else {
            events(.warning("the presentation steers between pathways, but the chosen variant has no STABLE-VARIANT-ID: no mid-transfer failover"))
            return nil
        }
        return JobSteering(multivariant: chosen.playlist, url: chosen.url, steering: steering, pathway: chosen.variant.pathwayId ?? ".",
                           tracks: [.init(stream: planned.plan.stream, equivalent: .variant(stableId: stableId), playlist: planned.loaded.playlist,
                                          url: planned.url)],
                           variables: planned.loaded.variables)
    }

    package func resolver(of planned: Planned) -> any TransferURLResolver {
        PlaylistURLResolver(stream: planned.plan.stream, playlistURL: planned.url)
    }

    package func prefetchedKeys(of planned: Planned) -> SessionKeyPrefetch? { planned.prefetched }

    package func encryption(of records: [AssemblyRecord], in planned: Planned) -> [(encryption: ResourceEncryption, fingerprint: String?)] {
        records.compactMap { record in
            record.resource < planned.plan.resourceCount ? planned.plan.resource(at: record.resource).encryption.map { ($0, record.key) } : nil
        }
    }

    package func output(for planned: Planned, staging: StagingFile, checkpoint: CheckpointLog<AssemblyRecord>, context: JobContext,
                        resumes: Bool) throws(HLSError) -> SingleFileAssembler {
        var settings = SingleFileAssembler.Settings()
        settings.capacity = options.capacity
        settings.maximumJobBytes = options.maximumJobBytes
        settings.maximumResourceBytes = options.maximumResourceBytes
        settings.checkpointBytes = options.checkpointBytes
        return try SingleFileAssembler(plan: planned.plan, output: staging, checkpoint: checkpoint, spillFolder: context.paths.spill,
                                       settings: settings, clock: context.clock)
    }

    package func preparation(of planned: Planned) -> ContainerPreparation {
        planned.plan.container == .fragmentedMP4 ? .joinedFragmentedMP4 : .asFetched
    }

    package func transfer(_ planned: Planned, into writer: SingleFileAssembler, restored: JobRestoration,
                          context: JobContext, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) {
        let plan = planned.plan
        let received = context.engine.processor.received
        // Between written resources, the bytes of those in flight.
        let relay = ProgressRelay<DownloadProgress>(received: received, restored: restored.fetchedBytes,
                                                    receiving: { $0.receiving(max($0.bytesReceived, $1)) }, emit: { events(.progress($0)) })
        defer { relay.stop() }
        let report = {
            relay.report(DownloadProgress(resourcesDone: writer.resourcesDone, resourceCount: plan.resourceCount, bytesWritten: writer.bytesWritten,
                                          bytesFetched: restored.fetchedBytes + writer.bytesFetched, totalBytes: plan.knownBytes,
                                          bytesReceived: restored.fetchedBytes + received.count))
        }
        report()
        try await context.engine.run(ListInput(plan.fetches(from: restored.resources)), firstIndex: restored.resources, into: writer, progress: report)
    }

    package func report(_ planned: Planned, product: (sha256: SHA256Digest, findings: [MediaFinding]), output: SingleFileAssembler,
                        restored: JobRestoration) -> DownloadReport {
        DownloadReport(destination: destination, plan: summary(of: planned), segmentCount: planned.plan.segmentCount,
                       byteCount: output.bytesWritten, resumedResources: restored.resources, sha256: product.sha256, findings: product.findings)
    }
}
