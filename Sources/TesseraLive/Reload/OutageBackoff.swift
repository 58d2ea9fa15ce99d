/// When a live reload that failed is tried again, and when the reloader gives up (RFC 8216bis
/// §6.3.4 leaves it to the client): capped exponential backoff — `initial`, doubled after each
/// failure, at most `cap` (by default one target duration, so the live edge is found again
/// within one segment once the origin is back) — for as long as the outage is shorter than
/// `limit`: by default the playlist's window (the sum of its EXTINFs, at least one target
/// duration), the span in which nothing published is lost yet; a recorder passes a longer one.
/// A pure value on the caller's clock: it is told how long the outage has lasted.
public struct OutageBackoff: Sendable, Equatable {
    /// What to do after a failure.
    public enum Decision: Sendable, Equatable {
        /// Try again after this wait (the `attempt`th retry of this outage).
        case retry(after: Duration, attempt: Int)
        /// The outage has lasted the limit: fail with the typed error.
        case giveUp(after: Duration, attempts: Int)
    }

    /// The first wait.
    public let initial: Duration
    /// The longest wait.
    public let cap: Duration
    /// The longest outage tried through.
    public let limit: Duration
    /// Failures in the current outage.
    public private(set) var failures = 0

    /// A policy for a playlist of `targetDuration` whose window is `window`; `limit` nil tries
    /// for the window (at least one target duration).
    public init(targetDuration: Duration, window: Duration, limit: Duration? = nil, initial: Duration = .milliseconds(250)) {
        precondition(targetDuration > .zero && initial > .zero, "positive durations")
        self.initial = min(initial, targetDuration)
        cap = targetDuration
        self.limit = limit ?? max(window, targetDuration)
    }

    /// A reload failed; the outage began `outage` ago (zero for the first failure).
    public mutating func failed(outageSoFar outage: Duration) -> Decision {
        failures += 1
        guard outage < limit else { return .giveUp(after: outage, attempts: failures) }
        var wait = initial
        for _ in 1..<failures where wait < cap { wait = wait * 2 }
        // Never wait past the limit: the last attempt is made at it.
        return .retry(after: min(min(wait, cap), limit - outage), attempt: failures)
    }

    /// A reload succeeded: the outage is over.
    public mutating func succeeded() { failures = 0 }

    /// The media sequence numbers an outage made the reloader miss: those after `lastSeen` and
    /// before the first segment of the playlist it got back (`firstNow`), or nil when none.
    public static func missed(lastSeen: UInt64?, firstNow: UInt64) -> ClosedRange<UInt64>? {
        guard let lastSeen, lastSeen < UInt64.max, firstNow > lastSeen + 1 else { return nil }
        return (lastSeen + 1)...(firstNow - 1)
    }
}
