#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP

/// How HLS jobs reach the network — the caller's, not the job's: the transport (trust, pins,
/// proxy, connection limits), the pipeline's policies (retries, auth refresh, interceptors,
/// circuit breaker, cache, coalescing), limits per request purpose (`PurposeLimits.hls` fills
/// the purposes left unset), the clock retry waits and resource deadlines run on, and an
/// observer of every request's events (start, retry, redirect, response, finish, failure;
/// URLs redacted). Every loader and job takes one.
public struct HLSClient: Sendable {
    /// The pipeline's policies, purpose limits filled in.
    public let configuration: HTTPPipelineConfiguration
    /// Called with every HTTP event of every job on this client (from several threads).
    public let observer: (@Sendable (HTTPEvent) -> Void)?
    /// The clock retry waits and deadlines run on.
    package let clock: any Clock<Duration>
    private let makePipeline: @Sendable (HTTPEventStream?) -> ResourceFetcher

    /// The policies HLS jobs use unless the caller brings its own: the pipeline's defaults with
    /// 4 attempts per request (playlists, keys, media), Retry-After honoured.
    public static var defaultConfiguration: HTTPPipelineConfiguration {
        var configuration = HTTPPipelineConfiguration()
        configuration.retry.maximumAttempts = 4
        return configuration
    }

    /// A client over `transport` on the continuous clock.
    public init(transport: any HTTPTransport, configuration: HTTPPipelineConfiguration = HLSClient.defaultConfiguration,
                observer: (@Sendable (HTTPEvent) -> Void)? = nil) {
        self.init(transport: transport, configuration: configuration, observer: observer, clock: ContinuousClock())
    }

    /// A client whose retry waits and deadlines run on `clock` (tests inject one).
    public init<C: Clock>(transport: any HTTPTransport, configuration: HTTPPipelineConfiguration = HLSClient.defaultConfiguration,
                          observer: (@Sendable (HTTPEvent) -> Void)? = nil, clock: C) where C.Duration == Duration {
        var configuration = configuration
        configuration.purposeLimits = configuration.purposeLimits.filling(from: .hls)
        self.configuration = configuration
        self.observer = observer
        self.clock = clock
        makePipeline = { [configuration] events in
            ResourceFetcher(pipeline: HTTPPipeline(transport: transport, configuration: configuration, clock: clock, events: events))
        }
    }

    /// A fetcher whose events go to `events`.
    package func fetcher(events: HTTPEventStream?) -> ResourceFetcher {
        makePipeline(events)
    }

    /// Runs `work` with a fetcher whose events reach the observer and, mapped, `retry`, as they
    /// happen (one route: no task forwards them, so every one is delivered before this returns).
    package func withFetcher<T: Sendable>(retry: (@Sendable (HTTPEvent) -> Void)? = nil,
                                  _ work: (ResourceFetcher) async throws(HLSError) -> T) async throws(HLSError) -> T {
        guard observer != nil || retry != nil else { return try await work(fetcher(events: nil)) }
        let observer = self.observer
        let events = HTTPEventStream { event in
            observer?(event)
            if case .retry = event.kind { retry?(event) }
        }
        return try await work(fetcher(events: events))
    }
}
