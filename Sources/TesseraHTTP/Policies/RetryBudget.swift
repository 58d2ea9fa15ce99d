/// A client-wide allowance of retries (a token bucket): each retry spends one token, each
/// success earns back `refundPerSuccess`, up to `capacity`. When the bucket is empty no request
/// retries, so a failing origin is not hammered by every request's retries at once.
public struct RetryBudget: Sendable, Equatable {
    /// Most tokens held. Default 20.
    public let capacity: Double
    /// Tokens earned back per success. Default 0.2.
    public let refundPerSuccess: Double
    /// Tokens now.
    public private(set) var tokens: Double

    /// A full bucket.
    public init(capacity: Double = 20, refundPerSuccess: Double = 0.2) {
        precondition(capacity >= 0 && refundPerSuccess >= 0, "a retry budget is not negative")
        self.capacity = capacity
        self.refundPerSuccess = refundPerSuccess
        tokens = capacity
    }

    /// Takes a token for one retry; false when none is left.
    public mutating func spend() -> Bool {
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Records a success.
    public mutating func recordSuccess() {
        tokens = min(capacity, tokens + refundPerSuccess)
    }
}
