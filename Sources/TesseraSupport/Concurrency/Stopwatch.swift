/// Time since a start, on an injected clock: outputs decide when a checkpoint is due with it.
package enum Stopwatch {
    /// A function giving the time elapsed on `clock` since now.
    package static func start<C: Clock>(_ clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
