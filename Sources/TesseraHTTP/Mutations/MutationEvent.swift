/// What happened to one mutation.
public struct MutationEvent: Sendable, Equatable {
    /// The states a mutation passes through.
    public enum Status: Sendable, Equatable {
        /// Accepted and stored.
        case queued
        /// Replaced, before it was sent, by a newer mutation with the same key.
        case superseded
        /// Being sent (attempt 1, 2, …).
        case sending(attempt: Int)
        /// Failed in a retryable way; the next attempt follows after `delay`.
        case retrying(attempt: Int, delay: Duration, reason: String)
        /// The server accepted it with this status.
        case succeeded(status: Int)
        /// Given up: a final status or failure, or attempts exhausted; `code` is the error code.
        case failed(code: HTTPError.Code, status: Int?)
    }

    /// The mutation's `Idempotency-Key` (its identity).
    public let id: String
    /// The mutation's key.
    public let key: String
    /// What happened.
    public let status: Status
}
