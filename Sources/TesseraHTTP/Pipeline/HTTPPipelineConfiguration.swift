/// The policies an `HTTPPipeline` applies, each opt-in or with safe defaults.
public struct HTTPPipelineConfiguration: Sendable {
    /// Retries; `RetryPolicy.never` turns them off.
    public var retry = RetryPolicy()
    /// The client-wide retry budget.
    public var retryBudget = RetryBudget()
    /// Redirects, followed by the pipeline hop by hop; `RedirectPolicy.none` hands them over.
    public var redirect = RedirectPolicy()
    /// A per-host circuit breaker, or nil for none.
    public var circuitBreaker: CircuitBreakerPolicy?
    /// Where bearer tokens come from for requests that use authentication, or nil for none.
    public var tokenSource: (any TokenSource)?
    /// Request interceptors, applied in order before the first attempt.
    public var interceptors: [any HTTPInterceptor] = []
    /// Wait for a network path before retrying after a network failure. Default nil (off).
    public var reachability: ReachabilityPolicy?
    /// Whether requests carry W3C trace context: a request with a valid `traceparent` continues
    /// that trace with a new span ID; one without (or with an invalid one) starts a new trace.
    public var propagatesTraceContext = false
    /// The response cache `data(_:upTo:)` reads and fills (`MemoryResponseCache`,
    /// `DiskResponseCache`), or nil for none.
    public var cache: (any ResponseCache)?
    /// What the cache may store and reuse.
    public var cachePolicy = CachePolicy()
    /// Whether identical in-flight GETs through `data(_:upTo:)` share one fetch. Identical means
    /// the same URL, headers, byte range and limit.
    public var coalescesIdenticalGETs = false

    /// Limits per request purpose, applied on top of each request's own (the stricter wins).
    /// Default none; HLS jobs fill in `PurposeLimits.hls` for the purposes left unset.
    public var purposeLimits = PurposeLimits()

    /// The defaults: retries and redirects on, no circuit breaker.
    public init() {}
}
