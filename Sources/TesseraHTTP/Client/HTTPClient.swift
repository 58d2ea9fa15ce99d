#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The client: endpoints in, typed values out, through the pipeline's policies over libcurl.
///
/// ```swift
/// let client = try HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!)
/// let user = try await client.send(GetUser(id: 42))
/// ```
///
/// Order of work for one call: the request is built (base URL rules, header layers, body
/// encoding); the pipeline runs interceptors and trace context once, then for each attempt the
/// circuit breaker, the bearer token, the transport, redirects hop by hop, one replay after a 401
/// with a refreshed token, and retries; `send`/`response` then collect the body (cache and
/// coalescing apply here), run the response adapters, validate the status and decode.
public final class HTTPClient: Sendable {
    /// The URL every endpoint path is appended to.
    public let baseURL: URL
    /// The policies.
    public let configuration: HTTPClientConfiguration
    private let urls: RequestURL
    private let pipeline: any PipelineSending
    private let eventStream: HTTPEventStream
    private let ownedTransport: CurlTransport?
    /// The libcurl engine's thread as a task executor, when the client runs over `CurlTransport`
    /// (nil over another transport): a sequential request loop that prefers it
    /// (`withTaskExecutorPreference(client.executor) { … }`) crosses no thread per request. Its
    /// code holds up every transfer while it runs — see `CurlTransport.executor`.
    public let executor: (any TaskExecutor)?

    /// A client over its own libcurl transport.
    /// - Throws: `configuration` errors for a base URL that breaks the rules (not http(s), plain
    ///   HTTP not allowed, user-info, query or fragment) or a transport that cannot start.
    public convenience init(baseURL: URL, configuration: HTTPClientConfiguration = HTTPClientConfiguration()) throws(HTTPError) {
        let transport: CurlTransport
        do { transport = try CurlTransport(configuration: configuration.transport) } catch {
            throw Self.configurationError(error)
        }
        try self.init(baseURL: baseURL, configuration: configuration, transport: transport, clock: ContinuousClock(),
                      owning: transport)
    }

    /// A client over `transport` (a mock in tests, or a shared `CurlTransport`), sleeping for
    /// backoff on `clock`.
    /// - Throws: `configuration` errors for a base URL that breaks the rules.
    public convenience init<C: Clock>(baseURL: URL, configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
                                      transport: any HTTPTransport, clock: C) throws(HTTPError) where C.Duration == Duration {
        try self.init(baseURL: baseURL, configuration: configuration, transport: transport, clock: clock, owning: nil)
    }

    private init<C: Clock>(baseURL: URL, configuration: HTTPClientConfiguration, transport: any HTTPTransport, clock: C,
                           owning: CurlTransport?) throws(HTTPError) where C.Duration == Duration {
        do { urls = try RequestURL(base: baseURL, allowHTTP: configuration.allowsHTTP) } catch {
            throw Self.configurationError(error)
        }
        self.baseURL = baseURL
        self.configuration = configuration
        eventStream = HTTPEventStream(capacity: configuration.eventCapacity, waitsForObserver: true)
        pipeline = HTTPPipeline(transport: transport, configuration: configuration.pipeline, clock: clock, events: eventStream)
        ownedTransport = owning
        executor = (transport as? CurlTransport)?.executor
    }

    /// Start, retry, redirect, response, finish and failure events of every request, with
    /// redacted URLs. Bounded: a slow reader loses the oldest events (counted in `droppedEvents`).
    /// Events are taken from the first read of this property on (so a client nobody observes
    /// spends nothing on them): read it before sending.
    public var events: AsyncStream<HTTPEvent> { eventStream.events }

    /// Events dropped because the reader fell behind.
    public var droppedEvents: Int { eventStream.dropped }

    /// Sends `endpoint` and decodes its response.
    /// - Throws: `HTTPError` at the stage where the call failed.
    public func send<E: Endpoint>(_ endpoint: E) async throws(HTTPError) -> E.Response {
        try await response(endpoint).value
    }

    /// Sends `endpoint` and returns the decoded value with the response's metadata.
    /// - Throws: `HTTPError` at the stage where the call failed.
    public func response<E: Endpoint>(_ endpoint: E) async throws(HTTPError) -> HTTPClientResponse<E.Response> {
        let start = ContinuousClock.now
        let request = try makeRequest(endpoint)
        let limit = configuration.collectionLimit ?? Int(clamping: configuration.limits.maximumBodyBytes)
        let collected = try await pipeline.data(request, upTo: limit)
        var response = HTTPCollectedResponse(head: collected.head, body: collected.body)
        for adapter in configuration.responseAdapters {
            try await adapter.adapt(&response)
        }
        try validate(response.head, endpoint.acceptableStatus, method: request.method, payload: response.body)
        let value = try endpoint.decoding.value(head: response.head, body: response.body)
        return HTTPClientResponse(value: value, metadata: HTTPResponseMetadata(
            head: response.head, total: start.duration(to: .now), bodyBytes: Int64(collected.body.count)))
    }

    /// Sends `endpoint` and returns the response as soon as its head is accepted, with the body
    /// to stream (for Server-Sent Events, NDJSON, or large bodies read piecewise). The endpoint's
    /// decoding is not used. Cancelling the reading task stops the transfer.
    /// - Throws: `HTTPError`; an unacceptable status is a `status` error (the body read for
    ///   payload capture only when the client opted in).
    public func stream<E: Endpoint>(_ endpoint: E) async throws(HTTPError) -> HTTPResponse {
        try await stream(try makeRequest(endpoint), accepting: endpoint.acceptableStatus)
    }

    /// `stream` for a request built by hand (an absolute URL from a `Link` header, a byte range).
    /// The URL must be `https` (or `http` when the client allows it), without user-info.
    /// - Throws: as `stream(_:)`.
    public func stream(_ request: HTTPRequest, accepting acceptable: AcceptableStatus = .successful) async throws(HTTPError) -> HTTPResponse {
        try admit(request)
        let response = try await pipeline.send(request)
        try await validate(response, acceptable, method: request.method)
        return response
    }

    /// Downloads `endpoint`'s body into `destination`: parent folders are created; the bytes go
    /// to a hidden staging file beside it, which is fsynced and published atomically only when
    /// the whole body arrived; an existing destination is refused (checked before any transfer
    /// and again at publication) unless `overwrite` is `.replace`. On any failure or
    /// cancellation the staging file is removed and the destination is untouched. A failure in
    /// the middle of the body retries the whole request under the retry policy. `writing` says
    /// which thread writes the file (`BodyFileWriting`: `beside` unless this client's engine
    /// carries nothing else).
    /// - Throws: `file` errors (`destination-exists`, `destination-unwritable`) and every other
    ///   stage's errors.
    @discardableResult
    public func download<E: Endpoint>(_ endpoint: E, to destination: URL, overwrite: OverwritePolicy = .refuse,
                                      writing: BodyFileWriting = .beside,
                                      progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws(HTTPError) -> HTTPResponseMetadata {
        try await download(try makeRequest(endpoint), accepting: endpoint.acceptableStatus, to: destination,
                           overwrite: overwrite, writing: writing, progress: progress)
    }

    /// `download` for a request built by hand (an absolute URL, a byte range). The URL must be
    /// `https` (or `http` when the client allows it), without user-info.
    /// - Throws: as `download(_:to:overwrite:writing:progress:)`.
    @discardableResult
    public func download(_ request: HTTPRequest, accepting acceptable: AcceptableStatus = .successful, to destination: URL,
                         overwrite: OverwritePolicy = .refuse, writing: BodyFileWriting = .beside,
                         progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws(HTTPError) -> HTTPResponseMetadata {
        let start = ContinuousClock.now
        try admit(request)
        var deep = request
        // A file drains fast: a deeper buffer means fewer pause/resume round trips with the engine.
        deep.limits.bufferHighWatermark = max(request.limits.bufferHighWatermark, Self.downloadBufferBytes)
        deep.limits.bufferLowWatermark = max(request.limits.bufferLowWatermark, Self.downloadBufferBytes / 4)
        let staging = Lock(try HTTPError.file { () throws(SupportError) in try StagingFile(destination: destination, policy: overwrite) })
        let result = try await pipeline.deliver(deep) { response throws(HTTPError) -> (HTTPResponseHead, Int64) in
            try await self.validate(response, acceptable, method: request.method)
            try staging.withLock { file throws(HTTPError) in try HTTPError.file { () throws(SupportError) in try file.truncate() } }
            let expected = response.head.headers["Content-Length"].flatMap { Int64($0) }
            // In whole pages: a piece of up to 1 MiB at a time while the transfer receives the
            // next, or each chunk by the transfer (`inline`); no write once this returned.
            let file = staging.withLock { $0.appender }
            let written = try await response.body.append(to: file, writing: writing) {
                progress?(TransferProgress(completed: $0, expected: expected))
            }
            return (response.head, written)
        }
        try staging.withLock { file throws(HTTPError) in _ = try HTTPError.file { () throws(SupportError) in try file.commit() } }
        return HTTPResponseMetadata(head: result.0, total: start.duration(to: .now), bodyBytes: result.1)
    }

    /// Downloads `endpoint`'s body into a new temporary file that becomes the caller's: move it
    /// or delete it. Nothing is left behind on failure.
    /// - Throws: as `download(_:to:overwrite:writing:progress:)`.
    public func download<E: Endpoint>(_ endpoint: E,
                                      progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws(HTTPError) -> (file: URL, metadata: HTTPResponseMetadata) {
        let name = "tessera-download-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        let metadata = try await download(endpoint, to: file, overwrite: .refuse, progress: progress)
        return (file, metadata)
    }

    /// The request `endpoint` becomes, before interceptors and authentication (for inspection and
    /// `curlCommand`).
    /// - Throws: `request-construction` errors.
    public func makeRequest<E: Endpoint>(_ endpoint: E) throws(HTTPError) -> HTTPRequest {
        var request = HTTPRequest(url: try urls.url(path: endpoint.path, query: endpoint.query))
        request.method = endpoint.method
        var layers = HeaderLayers()
        layers.set(.defaults, configuration.defaultHeaders)
        layers.set(.endpoint, endpoint.headers)
        if let content = endpoint.body {
            request.body = try content.body()
            if let type = content.contentType { layers.set(.bodyContentType, ["Content-Type": type]) }
        }
        request.headers = layers.merged
        request.authentication = endpoint.authentication
        request.cancellationTag = endpoint.cancellationTag
        request.limits = configuration.limits
        return request
    }

    /// A shell command reproducing `endpoint`'s request with curl, redacted unless `reveal` says.
    /// - Throws: `request-construction` errors.
    public func curlCommand<E: Endpoint>(_ endpoint: E, reveal: CurlCommand.Reveal = []) throws(HTTPError) -> String {
        CurlCommand(try makeRequest(endpoint), reveal: reveal).text
    }

    /// Cancels every call in flight; each throws `cancelled`.
    public func cancelAll() { pipeline.cancelAll() }

    /// Cancels every call in flight whose endpoint's `cancellationTag` is `tag`.
    public func cancel(tag: String) { pipeline.cancel(tag: tag) }

    /// Stops the client's own transport (calls in flight fail) and ends the event stream.
    public func shutdown() {
        ownedTransport?.shutdown()
        eventStream.finish()
    }

    /// Applies the base-URL rules to a hand-built request's URL.
    private func admit(_ request: HTTPRequest) throws(HTTPError) {
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "https" || (scheme == "http" && configuration.allowsHTTP) else {
            throw HTTPError(.invalidRequest, code: .insecureURL,
                            "\(URLRedaction.redact(request.url)) is not https and plain HTTP was not allowed.")
        }
        guard request.url.user == nil, request.url.password == nil else {
            throw HTTPError(.invalidRequest, code: .badURL, "\(URLRedaction.redact(request.url)) carries user-info; refused.")
        }
    }

    /// Throws the `status` error for a head the request does not accept, reading (bounded) and
    /// redacting its body first when payload capture is on.
    private func validate(_ response: HTTPResponse, _ acceptable: AcceptableStatus, method: HTTPMethod) async throws(HTTPError) {
        guard !acceptable.contains(response.head.status) else { return }
        var payload: [UInt8] = []
        if configuration.capturesFailurePayloads {
            do throws(HTTPError) {
                for try await chunk in response.body {
                    payload += chunk.prefix(configuration.payloadCaptureLimit - payload.count)
                    if payload.count >= configuration.payloadCaptureLimit { break }
                }
            } catch {
                // The status is the failure being reported; a broken failure body only shortens the copy.
            }
        }
        response.body.discard()
        try validate(response.head, acceptable, method: method, payload: payload)
    }

    private func validate(_ head: HTTPResponseHead, _ acceptable: AcceptableStatus, method: HTTPMethod,
                          payload: [UInt8]) throws(HTTPError) {
        guard !acceptable.contains(head.status) else { return }
        let url = URLRedaction.forEvents(head.url)
        var error = HTTPError(.status, code: .unacceptableStatus, "\(method) \(url) answered \(head.status).")
        error.status = head.status
        error.url = url
        if configuration.capturesFailurePayloads {
            error.capturedPayload = PayloadRedaction.redact(Array(payload.prefix(configuration.payloadCaptureLimit)),
                                                            limit: configuration.payloadCaptureLimit)
        }
        throw error
    }

    /// The body buffer a download may fill before the transfer pauses.
    static let downloadBufferBytes = 2 << 20

    private static func configurationError(_ error: HTTPError) -> HTTPError {
        HTTPError(error.category, code: error.code, error.message, curlCode: error.curlCode, osErrno: error.osErrno,
                  stage: .configuration)
    }
}
