import TesseraSupport
/// The retry decisions for one request, as a plain value: feed it each attempt's outcome and it
/// says whether to retry and after how long. No clock, no I/O; randomness is injected.
public struct RetryStateMachine: Sendable {
    /// What one attempt ended with.
    public enum Outcome: Sendable {
        /// A response (any status), with its headers.
        case response(status: Int, headers: HTTPHeaders)
        /// A transport failure.
        case failure(HTTPError)
    }

    /// What to do next.
    public enum Decision: Sendable, Equatable {
        /// Send again after waiting.
        case retry(after: Duration)
        /// Stop here and hand the outcome to the caller; the reason is for logs.
        case stop(reason: String)
    }

    /// How a retry event names `outcome`: `status 503`, or the failure's code.
    public static func reason(_ outcome: Outcome) -> String {
        switch outcome {
        case .response(let status, _): "status \(status)"
        case .failure(let error): error.code.rawValue
        }
    }

    private let policy: RetryPolicy
    private let isIdempotent: Bool
    /// Attempts made so far.
    public private(set) var attempts = 0

    /// The decisions for `request` under `policy`.
    public init(policy: RetryPolicy, request: HTTPRequest) {
        self.policy = policy
        isIdempotent = policy.idempotentMethods.contains(request.method) || request.headers["Idempotency-Key"] != nil
    }

    /// Records one attempt's outcome and decides.
    /// - Parameters:
    ///   - now: seconds since 1970, for `Retry-After` dates.
    ///   - budget: the client's retry budget; a retry spends one token.
    public mutating func decide(after outcome: Outcome, now: Int64, budget: inout RetryBudget,
                                using random: inout some RandomNumberGenerator) -> Decision {
        attempts += 1
        var retryAfter: RetryAfter?
        switch outcome {
        case .response(let status, let headers):
            guard policy.retryableStatuses.contains(status) else {
                if (200..<400).contains(status) { budget.recordSuccess() }
                return .stop(reason: "status \(status) is final")
            }
            retryAfter = headers["Retry-After"].flatMap { RetryAfter(headerValue: $0, now: now) }
        case .failure(let error):
            guard policy.retryableCategories.contains(error.category) else {
                return .stop(reason: "\(error.category) failures are not retried")
            }
        }
        guard isIdempotent else { return .stop(reason: "the request is not idempotent (no Idempotency-Key)") }
        guard attempts < policy.maximumAttempts else { return .stop(reason: "\(attempts) attempts made") }
        guard budget.spend() else { return .stop(reason: "the client's retry budget is spent") }
        if let retryAfter {
            return .retry(after: min(retryAfter.delay(now: now), policy.maximumRetryAfter))
        }
        return .retry(after: backoff(using: &random))
    }

    /// Re-decides the last attempt when its response body failed after a final status was
    /// already accepted: the failure replaces that attempt's outcome, so it does not count twice.
    public mutating func decide(afterBodyFailure error: HTTPError, now: Int64, budget: inout RetryBudget,
                                using random: inout some RandomNumberGenerator) -> Decision {
        attempts = max(0, attempts - 1)
        return decide(after: .failure(error), now: now, budget: &budget, using: &random)
    }

    /// initial × multiplier^(retries so far), capped, then reduced by up to `jitter` of itself.
    private func backoff(using random: inout some RandomNumberGenerator) -> Duration {
        let base = policy.initialBackoff.inSeconds
        let cap = policy.maximumBackoff.inSeconds
        var seconds = base
        for _ in 1..<attempts { seconds *= policy.multiplier }
        seconds = min(seconds, cap)
        let jitter = min(max(policy.jitter, 0), 1)
        seconds *= 1 - jitter * Double.random(in: 0..<1, using: &random)
        return .nanoseconds(Int64(seconds * 1e9))
    }
}
