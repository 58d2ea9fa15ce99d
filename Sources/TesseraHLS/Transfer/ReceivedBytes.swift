import Synchronization
import TesseraSupport

/// The network bytes a transfer has received so far, fetches in flight included (counted as each
/// chunk of a body arrives, a refetch counted again): what a job's progress takes its rate and ETA
/// from between written resources. A listener hears of them at most every `interval`
/// (default 200 ms), from the thread that received the chunk.
package final class ReceivedBytes: Sendable {
    private let total = Atomic<UInt64>(0)
    /// When the listener last heard, in nanoseconds of `ContinuousClock` since `origin`.
    private let lastHeard = Atomic<Int64>(Int64.min / 2)
    private let origin = ContinuousClock.now
    private let interval: Int64
    private let listener = Mutex<(@Sendable (UInt64) -> Void)?>(nil)

    /// A counter at 0 telling its listener at most every `interval`.
    package init(interval: Duration = .milliseconds(200)) {
        self.interval = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
    }

    /// Bytes received so far.
    package var count: UInt64 { total.load(ordering: .relaxed) }

    /// `listener` hears the count (replacing any other; nil: none).
    package func listen(_ listener: (@Sendable (UInt64) -> Void)?) {
        self.listener.withLock { $0 = listener }
    }

    /// Counts `bytes` more, and tells the listener when it has not heard for `interval`.
    package func add(_ bytes: Int) {
        let now = total.add(UInt64(bytes), ordering: .relaxed).newValue
        let elapsed = ContinuousClock.now - origin
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        let last = lastHeard.load(ordering: .relaxed)
        guard nanoseconds - last >= interval, lastHeard.compareExchange(expected: last, desired: nanoseconds, ordering: .relaxed).exchanged else { return }
        if let listener = listener.withLock({ $0 }) { listener(now) }
    }
}
