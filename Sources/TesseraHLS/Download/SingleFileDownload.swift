import Foundation
import TesseraHTTP
import TesseraMedia
import TesseraPlaylist

/// Downloads an HLS VOD into one file: the playlist (a variant chosen from a multivariant one),
/// a plan refused before any media byte when it cannot become one correct file, each key
/// fetched once, media fetched in parallel (bounded) and written strictly in order after
/// AES-128 decryption and container checks, durable checkpoints so a later run resumes, and an
/// atomic publication once the whole file passes its validator. Nothing ever appears at the
/// destination unless the job succeeds; transient failures keep a hidden partial file and its
/// checkpoint beside it for the next run.
public struct SingleFileDownload: Sendable {
    private let playlistURL: URL
    private let destination: URL
    private let options: Options
    private let makeFetcher: @Sendable (HTTPEventStream) -> ResourceFetcher

    /// A job that downloads `playlistURL` into `destination` through `transport`.
    public init(playlistURL: URL, destination: URL, transport: any HTTPTransport, options: Options = Options()) {
        self.init(playlistURL: playlistURL, destination: destination, transport: transport, options: options, clock: ContinuousClock())
    }

    /// A job whose retry waits run on `clock`.
    public init<C: Clock>(playlistURL: URL, destination: URL, transport: any HTTPTransport, options: Options, clock: C)
        where C.Duration == Duration {
        self.playlistURL = playlistURL
        self.destination = destination
        self.options = options
        makeFetcher = { events in
            var configuration = HTTPPipelineConfiguration()
            configuration.retry = options.retry
            return ResourceFetcher(pipeline: HTTPPipeline(transport: transport, configuration: configuration, clock: clock, events: events))
        }
    }

    /// Loads and plans without fetching media, keys or touching the destination.
    /// - Throws: as `run`, for the playlist and plan stages.
    public func plan() async throws(HLSError) -> DownloadPlanSummary {
        try await load(makeFetcher(HTTPEventStream())).summary
    }

    /// Runs the job; `events` may be called from several threads.
    /// - Throws: `HLSError`: `destination-exists`, `destination-unwritable`, `destination-busy`,
    ///   `insufficient-space`, `fetch-failed`, `http-status`, `invalid-playlist`,
    ///   `no-matching-variant`, `unsupported`, `bad-key`, `decrypt-failed`, `malformed-media`,
    ///   `budget-exceeded`, `source-changed` (twice in one run), `cancelled`.
    public func run(events: @escaping @Sendable (SingleFileDownload.Event) -> Void = { _ in }) async throws(HLSError) -> DownloadReport {
        let stream = HTTPEventStream()
        let forwarder = Task {
            for await event in stream.events {
                if case .retry(let attempt, let delay, let reason) = event.kind {
                    events(.retry(url: event.url, attempt: attempt, delay: delay, reason: reason))
                }
            }
        }
        let result = await outcome(events: events, stream: stream)
        // Every retry event is delivered before the job returns.
        stream.finish()
        await forwarder.value
        return try result.get()
    }

    private func outcome(events: @escaping @Sendable (Event) -> Void, stream: HTTPEventStream) async -> Result<DownloadReport, HLSError> {
        do throws(HLSError) { return .success(try await runLocked(events: events, stream: stream)) } catch { return .failure(error) }
    }

    private func runLocked(events: @escaping @Sendable (Event) -> Void, stream: HTTPEventStream) async throws(HLSError) -> DownloadReport {
        let paths = DownloadPaths(destination: destination)
        try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)   // else the lock reports why
        let lock = try DestinationLock(destination: destination, path: paths.lock)
        defer { lock.release() }
        let job = DownloadJob(paths: paths, options: options, fetcher: makeFetcher(stream), events: events)
        do {
            return try await job.run(try await load(job.fetcher))
        } catch where error.code == .sourceChanged {
            events(.checkpointDiscarded(reason: error.message))
            return try await job.run(try await load(job.fetcher), resumes: false)
        }
    }

    private func load(_ fetcher: ResourceFetcher) async throws(HLSError) -> (plan: DownloadPlan, summary: DownloadPlanSummary) {
        let loaded = try await PlaylistLoader(fetcher: fetcher).loadMediaPlaylist(playlistURL, choosing: options.variant)
        let plan = try DownloadPlan(playlist: loaded.playlist, baseURL: loaded.url, maximumCoalescedBytes: options.maximumCoalescedBytes)
        let estimate = plan.knownBytes == nil ? loaded.bandwidth.map { UInt64(Double($0) / 8 * plan.duration) } : nil
        let summary = DownloadPlanSummary(container: plan.container.rawValue, variant: loaded.variant, segments: plan.segmentCount,
                                          resources: plan.resources.count, requests: plan.requestCount, keys: plan.keyCount,
                                          knownBytes: plan.knownBytes, estimatedBytes: estimate, duration: plan.duration)
        return (plan, summary)
    }
}
