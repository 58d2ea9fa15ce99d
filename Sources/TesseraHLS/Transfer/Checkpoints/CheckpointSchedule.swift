import TesseraSupport
/// When an output's next checkpoint is due: after `bytes` written or `interval` passed on the
/// job's clock since the last one, whichever comes first (each checkpoint costs an fsync, so a
/// fast transfer checkpoints by bytes and a slow one still at least every interval).
package struct CheckpointSchedule {
    private let bytes: UInt64
    private let interval: Duration
    private let elapsed: @Sendable () -> Duration
    private var last: Duration = .zero
    private var bytesSince: UInt64 = 0

    /// A schedule of a checkpoint every `bytes` or every `interval` on `clock`.
    package init(bytes: UInt64, interval: Duration, clock: any Clock<Duration>) {
        self.bytes = bytes
        self.interval = interval
        elapsed = ElapsedClock(clock).elapsed
    }

    /// Counts `count` bytes written since the last checkpoint.
    package mutating func wrote(_ count: UInt64) {
        bytesSince += count
    }

    /// Whether a checkpoint is due (always with `force`); when it is, the schedule starts over
    /// from now.
    package mutating func take(force: Bool) -> Bool {
        let now = elapsed()
        guard force || bytesSince >= bytes || now - last >= interval else { return false }
        last = now
        bytesSince = 0
        return true
    }
}
