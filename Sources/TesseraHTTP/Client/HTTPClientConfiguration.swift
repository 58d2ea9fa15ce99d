/// Everything an `HTTPClient` applies to its requests. Every policy is a value; the defaults are
/// safe: HTTPS only, retries for idempotent methods, redirects followed with downgrade refused,
/// collection bounded to 5 MiB, no failure payloads captured.
public struct HTTPClientConfiguration: Sendable {
    /// Whether an `http://` base URL is allowed. Default false.
    public var allowsHTTP = false
    /// Retries, redirects, circuit breaker, auth refresh, interceptors, trace context, cache and
    /// coalescing (see `HTTPPipelineConfiguration`).
    public var pipeline = HTTPPipelineConfiguration()
    /// The libcurl engine: trust (CA bundle, pins), proxy, connection limits. Used when the
    /// client creates its own transport.
    public var transport = CurlTransport.Configuration()
    /// Bounds on each request (timeouts, body and header sizes, buffering).
    public var limits = TransferLimits()
    /// The lowest-precedence header fields. Default `User-Agent: Tessera` and `Accept: */*`.
    public var defaultHeaders: HTTPHeaders = ["User-Agent": "Tessera", "Accept": "*/*"]
    /// Most bytes `send` and `response` collect into memory; nil opts out (the transport's
    /// `limits.maximumBodyBytes` still applies). Default 5 MiB. Streams and downloads are not
    /// collected.
    public var collectionLimit: Int? = 5 << 20
    /// Response adapters, run in order on collected responses before status validation.
    public var responseAdapters: [any HTTPResponseAdapter] = []
    /// Whether status errors carry a redacted copy of the failure body
    /// (`HTTPError.capturedPayload`). Default false.
    public var capturesFailurePayloads = false
    /// Most bytes of a failure body read for payload capture, and most characters kept.
    public var payloadCaptureLimit = 4096
    /// Events buffered for a slow consumer of `HTTPClient.events` before the oldest are dropped.
    public var eventCapacity = 1024

    /// The defaults.
    public init() {}
}
