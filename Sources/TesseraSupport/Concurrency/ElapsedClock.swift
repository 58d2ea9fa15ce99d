/// A clock of any instant type seen as time elapsed since it was made, and sleeps on it — the
/// one way the house reads an injected clock: the watchers and controllers that wait on the
/// client's clock, the outputs deciding when a checkpoint is due, the curl engine's deadlines.
package struct ElapsedClock: Sendable {
    /// The time since this was made.
    package let elapsed: @Sendable () -> Duration
    /// Sleeps for a duration on the clock (throws when cancelled).
    package let sleep: @Sendable (Duration) async throws -> Void

    /// Elapsed time on `clock`, from now.
    package init(_ clock: any Clock<Duration>) {
        (elapsed, sleep) = Self.timing(clock)
    }

    private static func timing<C: Clock>(_ clock: C) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void)
        where C.Duration == Duration {
        let start = clock.now
        return ({ start.duration(to: clock.now) }, { try await clock.sleep(for: $0) })
    }
}
