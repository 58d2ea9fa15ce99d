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
/// `HLSClient`.
public struct SingleFileDownload: Sendable {
    private let playlistURL: URL
    private let destination: URL
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

    /// Loads and plans without fetching media, keys or touching the destination.
    /// - Throws: as `run`, for the playlist and plan stages.
    public func plan() async throws(HLSError) -> DownloadPlanSummary {
        try await client.withFetcher { fetcher throws(HLSError) in try await load(fetcher).summary }
    }

    /// Runs the job; `events` may be called from several threads.
    /// - Throws: `HLSError`: `destination-exists`, `destination-unwritable`, `destination-busy`,
    ///   `insufficient-space`, `fetch-failed`, `http-status`, `invalid-playlist`,
    ///   `no-matching-variant`, `unsupported`, `bad-key`, `decrypt-failed`, `malformed-media`,
    ///   `budget-exceeded`, `source-changed` (twice in one run), `cancelled`.
    public func run(events: @escaping @Sendable (SingleFileDownload.Event) -> Void = { _ in }) async throws(HLSError) -> DownloadReport {
        try await client.withFetcher(retry: { event in
            if case .retry(let attempt, let delay, let reason) = event.kind {
                events(.retry(url: event.url, attempt: attempt, delay: delay, reason: reason))
            }
        }) { fetcher throws(HLSError) in
            try await runLocked(fetcher: fetcher, events: events)
        }
    }

    private func runLocked(fetcher: ResourceFetcher, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> DownloadReport {
        let paths = DownloadPaths(destination: destination)
        try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)   // else the lock reports why
        let lock: DestinationLock
        do { lock = try DestinationLock(destination: destination, path: paths.lock) } catch { throw HLSError(destination: error) }
        defer { lock.release() }
        let job = DownloadJob(paths: paths, options: options, fetcher: fetcher, clock: client.clock, events: events)
        do {
            return try await steered(try await load(fetcher), fetcher: fetcher, events: events) { planned, resolver throws(HLSError) in
                try await job.run(planned, resolver: resolver)
            }
        } catch where error.code == .sourceChanged {
            events(.checkpointDiscarded(reason: error.message))
            return try await steered(try await load(fetcher), fetcher: fetcher, events: events) { planned, resolver throws(HLSError) in
                try await job.run(planned, resolver: resolver, resumes: false)
            }
        }
    }

    /// Runs `work` with the resolver of `planned`: on the steering pathway, with the steering
    /// manifest reloaded while it runs, when the presentation steers and the variant has a
    /// STABLE-VARIANT-ID; else against the playlist's URL.
    private func steered(_ planned: Planned, fetcher: ResourceFetcher, events: @escaping @Sendable (Event) -> Void,
                         _ work: (DownloadJob.Planned, any TransferURLResolver) async throws(HLSError) -> DownloadReport) async throws(HLSError) -> DownloadReport {
        let job = DownloadJob.Planned(plan: planned.plan, summary: planned.summary, url: planned.url, prefetched: planned.prefetched)
        let plain = PlaylistURLResolver(stream: planned.plan.stream, playlistURL: planned.url)
        guard options.steering, let chosen = planned.loaded.multivariant, let steering = chosen.playlist.contentSteering else {
            return try await work(job, plain)
        }
        guard let stableId = chosen.variant.stableVariantId else {
            events(.warning("the presentation steers between pathways, but the chosen variant has no STABLE-VARIANT-ID: no mid-transfer failover"))
            return try await work(job, plain)
        }
        let state = try SteeringState(multivariant: chosen.playlist, url: chosen.url, steering: steering, penalty: options.steeringPenalty)
        let controller = SteeringController(state: state, url: chosen.url, client: client) { events(.steering($0)) }
        let loader = PlaylistLoader(fetcher: fetcher)
        let resolver = SteeringResolver(controller: controller, stream: planned.plan.stream, equivalent: .variant(stableId: stableId),
                                        planned: planned.loaded.playlist, plannedURL: planned.url,
                                        plannedPathway: chosen.variant.pathwayId ?? ".", multivariantURL: chosen.url) { url throws(HLSError) in
            try await loader.loadMediaPlaylist(url)
        }
        let reloads = Task { await controller.run() }
        defer { reloads.cancel() }
        return try await work(job, resolver)
    }

    /// A loaded and planned playlist.
    struct Planned: Sendable {
        let plan: DownloadPlan
        let summary: DownloadPlanSummary
        let url: URL
        let loaded: PlaylistLoader.Loaded
        let prefetched: SessionKeyPrefetch?
    }

    private func load(_ fetcher: ResourceFetcher) async throws(HLSError) -> Planned {
        let prefetch = Lock<SessionKeyPrefetch?>(nil)
        let prefetches = options.prefetchSessionKeys
        let loaded = try await PlaylistLoader(fetcher: fetcher).loadMediaPlaylist(playlistURL, choosing: options.variant,
                                                                                  capabilities: options.capabilities) { multivariant, url in
            guard prefetches, !multivariant.sessionKeys.isEmpty else { return }
            prefetch.withLock { $0 = SessionKeyPrefetch(multivariant, url: url, fetcher: fetcher) }
        }
        let plan = try DownloadPlan(playlist: loaded.playlist, baseURL: loaded.url, maximumCoalescedBytes: options.maximumCoalescedBytes)
        let estimate = plan.knownBytes == nil ? loaded.bandwidth.map { UInt64(Double($0) / 8 * plan.duration) } : nil
        let summary = DownloadPlanSummary(container: plan.container.rawValue, variant: loaded.variant, segments: plan.segmentCount,
                                          resources: plan.resourceCount, requests: plan.requestCount, keys: plan.keyCount,
                                          knownBytes: plan.knownBytes, estimatedBytes: estimate, duration: plan.duration)
        return Planned(plan: plan, summary: summary, url: loaded.url, loaded: loaded, prefetched: prefetch.withLock { $0 })
    }
}
