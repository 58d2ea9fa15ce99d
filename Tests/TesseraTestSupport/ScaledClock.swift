/// A clock that runs `scale` times faster than the continuous clock: an hour of it passes in
/// `3600 / scale` real seconds. A live origin and a recorder sharing one see the same stream —
/// a two-hour recording in minutes, with no false gaps — as long as the machine keeps up.
public struct ScaledClock: Clock, Sendable {
    /// A point on the clock.
    public struct Instant: InstantProtocol {
        /// Scaled time since the clock started.
        public var offset: Duration

        /// The instant `offset` after the clock started.
        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// How much faster than real time.
    public let scale: Int
    private let base = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// A clock at zero now, `scale` (≥ 1) times real time.
    public init(scale: Int) {
        self.scale = max(1, scale)
        start = base.now
    }

    public var now: Instant { Instant(offset: (base.now - start) * scale) }
    public var minimumResolution: Duration { .microseconds(1) * scale }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: start + deadline.offset / scale, tolerance: nil)
    }
}
