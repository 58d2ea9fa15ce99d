import Foundation

/// Sends requests through the client's policies over a transport: a per-host circuit breaker,
/// redirects followed hop by hop, and retries with backoff — in that order for each attempt.
/// Time comes from an injected clock (tests use one that never really sleeps); `wallClock` gives
/// seconds since 1970 for `Retry-After` dates.
///
/// Redirect hops do not count as retry attempts; a retry resends the current hop. A response
/// that is retried or redirected is discarded unread.
public final class HTTPPipeline<C: Clock>: Sendable where C.Duration == Duration {
    private struct State {
        var budget: RetryBudget
        var breakers: [String: CircuitBreakerStateMachine<C.Instant>] = [:]
        var nextRequestID: UInt64 = 0
    }

    private let transport: any HTTPTransport
    private let configuration: HTTPPipelineConfiguration
    private let clock: C
    private let wallClock: @Sendable () -> Int64
    private let events: HTTPEventStream?
    private let state: Lock<State>

    /// A pipeline over `transport`.
    public init(transport: any HTTPTransport, configuration: HTTPPipelineConfiguration = HTTPPipelineConfiguration(),
                clock: C, events: HTTPEventStream? = nil,
                wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        self.wallClock = wallClock
        self.events = events
        self.state = Lock(State(budget: configuration.retryBudget))
    }

    /// Sends `request` and returns the final response head with its body to stream.
    /// - Throws: the last transport failure when retries are exhausted or not allowed;
    ///   `circuit-open` when the host's circuit refuses; a redirect refusal; `cancelled`.
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let id = state.withLock { state -> UInt64 in
            state.nextRequestID += 1
            return state.nextRequestID
        }
        let start = clock.now
        var current = request
        var redirects = RedirectStateMachine(policy: configuration.redirect, request: request)
        var retries = RetryStateMachine(policy: configuration.retry, request: request)
        var random = SystemRandomNumberGenerator()
        func emit(_ kind: HTTPEvent.Kind) {
            events?.emit(HTTPEvent(requestID: id, method: current.method.rawValue, url: current.url, kind: kind,
                                   elapsed: start.duration(to: clock.now)))
        }
        func fail(_ error: HTTPError) -> HTTPError {
            emit(.failure(code: error.code))
            return error
        }
        emit(.start)
        while true {
            guard !Task.isCancelled else {
                throw fail(HTTPError(.cancelled, code: "cancelled", "The request to \(URLRedaction.redact(current.url)) was cancelled."))
            }
            let host = current.url.host?.lowercased() ?? ""
            let admission = admit(host)
            guard admission != .refused else {
                throw fail(HTTPError(.connect, code: "circuit-open",
                                     "The circuit for \(host) is open after repeated failures; the request was not sent."))
            }
            let attempt: Result<HTTPResponse, HTTPError>
            do throws(HTTPError) {
                attempt = .success(try await transport.send(current))
            } catch {
                attempt = .failure(error)
            }
            let outcome: RetryStateMachine.Outcome
            var response: HTTPResponse?
            switch attempt {
            case .failure(let error):
                record(host, success: false)
                outcome = .failure(error)
            case .success(let received):
                let status = received.head.status
                record(host, success: status < 500)
                emit(.response(status: status))
                switch redirects.decide(status: status, headers: received.head.headers) {
                case .follow(let next):
                    received.body.discard()
                    emit(.redirect(status: status, location: URLRedaction.forEvents(next.url)))
                    current = next
                    continue
                case .refuse(let error):
                    received.body.discard()
                    throw fail(error)
                case .deliver:
                    response = received
                    outcome = .response(status: status, headers: received.head.headers)
                }
            }
            let now = wallClock()
            let decision = state.withLock { state in
                retries.decide(after: outcome, now: now, budget: &state.budget, using: &random)
            }
            switch decision {
            case .stop:
                if let response { return response }
                if case .failure(let error) = outcome { throw fail(error) }
            case .retry(let delay):
                response?.body.discard()
                emit(.retry(attempt: retries.attempts, delay: delay, reason: Self.reason(outcome)))
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    throw fail(HTTPError(.cancelled, code: "cancelled", "The request to \(URLRedaction.redact(current.url)) was cancelled while waiting to retry."))
                }
            }
        }
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

    private static func reason(_ outcome: RetryStateMachine.Outcome) -> String {
        switch outcome {
        case .response(let status, _): "status \(status)"
        case .failure(let error): error.code
        }
    }
}
