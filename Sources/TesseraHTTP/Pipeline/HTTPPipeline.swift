#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Sends requests through the client's policies over a transport: a per-host circuit breaker,
/// redirects followed hop by hop, and retries with backoff — in that order for each attempt.
/// Time comes from an injected clock (tests use one that never really sleeps); `wallClock` gives
/// seconds since 1970 for `Retry-After` dates.
///
/// Redirect hops do not count as retry attempts; a retry resends the current hop. A response
/// that is retried or redirected is discarded unread.
public final class HTTPPipeline<C: Clock>: Sendable where C.Duration == Duration {
    struct State {
        var budget: RetryBudget
        var breakers: [String: CircuitBreakerStateMachine<C.Instant>] = [:]
        var nextRequestID: UInt64 = 0
        var nextInFlightKey: UInt64 = 0
        var inFlight: [UInt64: RequestCancellation] = [:]
    }

    private let transport: any HTTPTransport
    /// The transport again when it takes a request's cancellation itself (no task per request).
    private let awareTransport: (any CancellationAwareTransport)?
    let configuration: HTTPPipelineConfiguration
    let clock: C
    let wallClock: @Sendable () -> Int64
    private let events: HTTPEventStream?
    let state: Lock<State>
    let coalescer = RequestCoalescer<String, Collected>()
    let auth: AuthRefreshCoordinator?

    /// A collected response, as `data(_:upTo:)` returns it.
    public typealias Collected = (head: HTTPResponseHead, body: [UInt8])

    /// A pipeline over `transport`.
    public init(transport: any HTTPTransport, configuration: HTTPPipelineConfiguration = HTTPPipelineConfiguration(),
                clock: C, events: HTTPEventStream? = nil,
                wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.transport = transport
        awareTransport = transport as? any CancellationAwareTransport
        self.configuration = configuration
        self.clock = clock
        self.wallClock = wallClock
        self.events = events
        self.state = Lock(State(budget: configuration.retryBudget))
        self.auth = configuration.tokenSource.map { AuthRefreshCoordinator(source: $0) }
    }

    /// Sends `request` and returns the final response head with its body to stream; the `finish`
    /// (or `failure`) event is emitted when the body ends.
    /// - Throws: the last transport failure when retries are exhausted or not allowed;
    ///   `circuit-open` when the host's circuit refuses; a redirect refusal; `cancelled`.
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        try await cancellable(request.cancellationTag, direct: awareTransport != nil) { cancellation async throws(HTTPError) in
            var run = self.begin(try await self.prepare(request, cancellation), cancellation)
            let response = try await self.exchange(&run)
            let ended = run
            let body = CountingBodySource(response.body) { result in
                switch result {
                case .success(let bytes): self.emit(ended, .finish(bytes: bytes))
                case .failure(let error): _ = self.fail(ended, error)
                }
            }
            return HTTPResponse(head: response.head, body: HTTPBody(source: body))
        }
    }

    /// Sends `request` and collects its body, up to `limit` bytes. A retryable failure in the
    /// middle of the body (connection lost, timeout) retries the whole request under the same
    /// retry policy and budget.
    /// - Throws: as `send`, plus `body-too-large` past `limit` and the body's last failure.
    public func data(_ request: HTTPRequest, upTo limit: Int) async throws(HTTPError) -> Collected {
        let direct = awareTransport != nil && !configuration.coalescesIdenticalGETs
        return try await cancellable(request.cancellationTag, direct: direct) { cancellation async throws(HTTPError) in
            try await self.cachedData(try await self.prepare(request, cancellation), upTo: limit, cancellation)
        }
    }

    /// Cancels every request in flight (up to its response head for `send`, through its body for
    /// `data`); each throws `cancelled`.
    public func cancelAll() {
        for request in state.withLock({ Array($0.inFlight.values) }) { request.cancel() }
    }

    /// Cancels every request in flight whose `cancellationTag` is `tag`.
    public func cancel(tag: String) {
        for request in state.withLock({ $0.inFlight.values.filter { $0.tag == tag } }) { request.cancel() }
    }

    /// Sends `request` and hands each final response to `consume`, which reads its body. When
    /// the body fails in a retryable way (connection lost, timeout), the whole request is sent
    /// again under the same retry policy and budget and `consume` starts over with the new
    /// response; other errors `consume` throws end the request.
    /// - Throws: as `send`, plus what `consume` throws.
    public func deliver<T: Sendable>(_ request: HTTPRequest,
                                     _ consume: @escaping @Sendable (HTTPResponse) async throws(HTTPError) -> T) async throws(HTTPError) -> T {
        try await cancellable(request.cancellationTag, direct: false) { cancellation async throws(HTTPError) in
            try await self.consumeWithRetries(try await self.prepare(request, cancellation), cancellation, consume)
        }
    }

    /// Runs `work` as a request `cancelAll()` and `cancel(tag:)` reach. `direct`: in the caller's
    /// task (every wait in it honours the `RequestCancellation`); otherwise in a child task they
    /// cancel, the caller's cancellation forwarded to it.
    func cancellable<T: Sendable>(_ tag: String?, direct: Bool,
                                  _ work: @escaping @Sendable (RequestCancellation) async throws(HTTPError) -> T) async throws(HTTPError) -> T {
        let cancellation = RequestCancellation(tag: tag, covered: !direct)
        let key = state.withLock { state -> UInt64 in
            state.nextInFlightKey += 1
            state.inFlight[state.nextInFlightKey] = cancellation
            return state.nextInFlightKey
        }
        defer {
            state.withLock { _ = $0.inFlight.removeValue(forKey: key) }
            cancellation.finish()
        }
        if direct { return try await work(cancellation) }
        let task = Task.immediate { () async -> Result<T, HTTPError> in
            do throws(HTTPError) { return .success(try await work(cancellation)) } catch { return .failure(error) }
        }
        cancellation.onCancel { task.cancel() }
        return try await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }.get()
    }

    func consumeWithRetries<T: Sendable>(_ request: HTTPRequest, _ cancellation: RequestCancellation,
                                         _ consume: @Sendable (HTTPResponse) async throws(HTTPError) -> T) async throws(HTTPError) -> T {
        var run = begin(request, cancellation)
        while true {
            let response = try await exchange(&run)
            let counter = CountingBodySource(response.body)
            do throws(HTTPError) {
                let value = try await consume(HTTPResponse(head: response.head, body: HTTPBody(source: counter)))
                emit(run, .finish(bytes: counter.count))
                return value
            } catch {
                response.body.discard()
                guard try await retry(&run, afterBodyFailure: error) else { throw fail(run, error) }
            }
        }
    }

    /// Runs the interceptors, then adds trace context when configured.
    private func prepare(_ request: HTTPRequest, _ cancellation: RequestCancellation) async throws(HTTPError) -> HTTPRequest {
        var request = request
        request.limits = configuration.purposeLimits.apply(to: request.limits, purpose: request.purpose)
        for interceptor in configuration.interceptors {
            request = try await cancellation.guarding { [request] () async throws(HTTPError) in
                var request = request
                try await interceptor.intercept(&request)
                return request
            }
        }
        if configuration.propagatesTraceContext {
            var random = SystemRandomNumberGenerator()
            let parent = request.headers["traceparent"].flatMap { TraceParent(headerValue: $0) }
            let context = parent?.child(using: &random) ?? TraceParent(using: &random)
            request.headers.set("traceparent", context.description)
        }
        return request
    }

    private func begin(_ request: HTTPRequest, _ cancellation: RequestCancellation) -> PipelineRun<C.Instant> {
        let id = state.withLock { state -> UInt64 in
            state.nextRequestID += 1
            return state.nextRequestID
        }
        var run = PipelineRun(id: id, start: clock.now, request: request, configuration: configuration, cancellation: cancellation)
        if events?.isActive == true { run.eventURL = URLRedaction.forEvents(request.url) }
        emit(run, .start)
        return run
    }

    /// Attaches the bearer token (the highest-precedence header layer) when the request uses
    /// authentication.
    private func authorize(_ run: inout PipelineRun<C.Instant>) async throws(HTTPError) {
        switch run.current.authentication {
        case .anonymous:
            return
        case .optional:
            guard auth != nil else { return }
        case .required:
            guard auth != nil else {
                throw fail(run, HTTPError(.invalidRequest, code: .missingTokenSource,
                                          "The request to \(URLRedaction.redact(run.current.url)) requires authentication and the client has no token source.",
                                          stage: .configuration))
            }
        }
        guard let auth else { return }
        let token = try await run.cancellation.guarding { () async throws(HTTPError) in try await auth.token() }
        run.token = token
        run.current.headers.set("Authorization", "Bearer \(token)")
    }

    /// After a 401, refreshes the token once and says whether to replay.
    private func replayAfter401(_ run: inout PipelineRun<C.Instant>) async throws(HTTPError) -> Bool {
        guard run.mayReplayAfter401, let auth, let rejected = run.token,
              run.current.headers["Authorization"] == "Bearer \(rejected)" else { return false }
        run.mayReplayAfter401 = false
        let token = try await run.cancellation.guarding { () async throws(HTTPError) in try await auth.token(afterRejecting: rejected) }
        run.token = token
        run.current.headers.set("Authorization", "Bearer \(token)")
        return true
    }

    /// Asks the replaying interceptors whether `head` calls for the request once more (once per
    /// request); the first that says so has adjusted the current hop.
    private func replayForInterceptors(_ run: inout PipelineRun<C.Instant>, after head: HTTPResponseHead) async throws(HTTPError) -> Bool {
        for case let interceptor as any HTTPReplayingInterceptor in configuration.interceptors {
            let (replays, adjusted) = try await run.cancellation.guarding { [current = run.current] () async throws(HTTPError) in
                var request = current
                return (try await interceptor.replay(&request, after: head), request)
            }
            run.current = adjusted
            if replays {
                run.mayReplayForInterceptor = false
                return true
            }
        }
        return false
    }

    /// Attempts until a response is final: breaker, transport, redirects, retries, one replay
    /// after a 401 with a refreshed token, one replay a replaying interceptor asks for.
    private func exchange(_ run: inout PipelineRun<C.Instant>) async throws(HTTPError) -> HTTPResponse {
        if run.token == nil { try await authorize(&run) }
        while true {
            guard !Task.isCancelled, !run.cancellation.isCancelled else {
                throw fail(run, HTTPError(.cancelled, code: .cancelled, "The request to \(URLRedaction.redact(run.current.url)) was cancelled."))
            }
            let host = run.current.url.host?.lowercased() ?? ""
            guard admit(host) != .refused else {
                throw fail(run, HTTPError(.connect, code: .circuitOpen,
                                          "The circuit for \(host) is open after repeated failures; the request was not sent."))
            }
            let attempt: Result<HTTPResponse, HTTPError>
            do throws(HTTPError) {
                attempt = .success(try await self.attempt(run))
            } catch {
                attempt = .failure(error)
            }
            switch attempt {
            case .failure(let error):
                record(host, success: false)
                guard try await retry(&run, after: .failure(error)) else { throw fail(run, error) }
            case .success(let received):
                let status = received.head.status
                record(host, success: status < 500)
                emit(run, .response(status: status), timings: received.head.timings)
                switch run.redirects.decide(status: status, headers: received.head.headers) {
                case .follow(let next):
                    received.body.discard()
                    let location = URLRedaction.forEvents(next.url)
                    emit(run, .redirect(status: status, location: location))
                    run.current = next
                    run.eventURL = location
                case .refuse(let error):
                    received.body.discard()
                    throw fail(run, error)
                case .deliver:
                    if status == 401, try await replayAfter401(&run) {
                        received.body.discard()
                        continue
                    }
                    if run.mayReplayForInterceptor, try await replayForInterceptors(&run, after: received.head) {
                        received.body.discard()
                        continue
                    }
                    guard try await retry(&run, after: .response(status: status, headers: received.head.headers)) else {
                        return received
                    }
                    received.body.discard()
                }
            }
        }
    }

    /// One attempt of the current hop through the transport, cancelled also by the pipeline.
    private func attempt(_ run: PipelineRun<C.Instant>) async throws(HTTPError) -> HTTPResponse {
        guard let awareTransport else { return try await transport.send(run.current) }
        return try await awareTransport.send(run.current, cancellation: run.cancellation)
    }

    func emit(_ run: PipelineRun<C.Instant>, _ kind: HTTPEvent.Kind, timings: TransferTimings? = nil) {
        guard let events, events.isActive else { return }
        if run.eventURL.isEmpty { return }   // events started after this request began
        events.emit(HTTPEvent(requestID: run.id, method: run.current.method.rawValue, redactedURL: run.eventURL, kind: kind,
                               elapsed: run.start.duration(to: clock.now), timings: timings))
    }

    func fail(_ run: PipelineRun<C.Instant>, _ error: HTTPError) -> HTTPError {
        emit(run, .failure(code: error.code))
        return error
    }

    private func admit(_ host: String) -> CircuitBreakerStateMachine<C.Instant>.Admission {
        guard let policy = configuration.circuitBreaker else { return .allowed }
        let now = clock.now
        return state.withLock { state in
            state.breakers[host, default: CircuitBreakerStateMachine(policy: policy)].admit(at: now)
        }
    }

    private func record(_ host: String, success: Bool) {
        guard configuration.circuitBreaker != nil else { return }
        let now = clock.now
        state.withLock { state in state.breakers[host]?.record(success: success, at: now) }
    }

}
