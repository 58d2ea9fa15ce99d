/// Monotonic time since the first reading in the process: what caches measure ages on.
public enum MonotonicTime {
    private static let origin = ContinuousClock.now

    /// The time since the first reading.
    @Sendable public static func now() -> Duration { ContinuousClock.now - origin }
}
