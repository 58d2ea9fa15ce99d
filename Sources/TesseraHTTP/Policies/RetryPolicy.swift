/// When and how often a request is retried.
///
/// Retried: transport failures of the categories in `retryableCategories` and responses with a
/// status in `retryableStatuses`, for idempotent requests only (RFC 9110 §9.2.2: GET, HEAD,
/// OPTIONS and TRACE by default; other methods only when the request carries an
/// `Idempotency-Key`). The wait is exponential with jitter, or the server's `Retry-After`
/// (clamped to `maximumRetryAfter`) when it sent one. Every retry also needs a token from the
/// client's `RetryBudget`.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included. Default 3.
    public var maximumAttempts = 3
    /// The wait before the first retry. Default 200 ms.
    public var initialBackoff: Duration = .milliseconds(200)
    /// The longest computed wait. Default 10 s.
    public var maximumBackoff: Duration = .seconds(10)
    /// Growth per retry. Default 2.
    public var multiplier = 2.0
    /// Fraction of the wait that is randomised downwards (0 = none, 1 = full jitter). Default 0.5.
    public var jitter = 0.5
    /// The longest `Retry-After` honoured; longer values are clamped to it. Default 60 s.
    public var maximumRetryAfter: Duration = .seconds(60)
    /// Statuses worth retrying. Default 408, 429, 500, 502, 503, 504.
    public var retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Transport failures worth retrying. Default DNS, connect, timeout, connection lost.
    public var retryableCategories: Set<HTTPError.Category> = [.dns, .connect, .timeout, .connectionLost]
    /// Methods retried without an `Idempotency-Key`. Default GET, HEAD, OPTIONS, TRACE.
    public var idempotentMethods: Set<HTTPMethod> = [.get, .head, .options, HTTPMethod("TRACE")]

    /// The defaults.
    public init() {}

    /// Never retry.
    public static var never: RetryPolicy {
        var policy = RetryPolicy()
        policy.maximumAttempts = 1
        return policy
    }
}
