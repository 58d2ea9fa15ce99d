import TesseraHTTP
import TesseraSupport

/// A clock whose sleeps return at once (after checking cancellation) and whose time advances by
/// each sleep's duration: retry backoff and `Retry-After` cost no real time in tests.
public final class ImmediateClock: Clock, Sendable {
    /// A point on the clock.
    public struct Instant: InstantProtocol {
        /// Time since the clock started.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Lock<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))

    /// A clock at zero.
    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Every sleep asked for, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Moves time forward without a sleep (a circuit breaker's cool-down, a cache entry's age).
    public func advance(by duration: Duration) {
        state.withLock { $0.now = $0.now.advanced(by: duration) }
    }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            if state.now < deadline { state.now = deadline }
        }
    }
}
