import Synchronization

/// Hands a job's progress to its events: each value the job reports (after every written
/// resource), and between them, as the bytes of fetches in flight arrive (`ReceivedBytes`), the
/// last value with the bytes received so far. One at a time under one lock, so the events see the
/// resources and the bytes only grow.
package final class ProgressRelay<Progress: Sendable>: Sendable {
    private let latest = Mutex<Progress?>(nil)
    private let received: ReceivedBytes
    private let restored: UInt64
    private let receiving: @Sendable (Progress, UInt64) -> Progress
    private let emit: @Sendable (Progress) -> Void

    /// A relay emitting through `emit`; `receiving` gives a value with the bytes received (the
    /// count from `received` plus `restored`, never less than the value's own).
    package init(received: ReceivedBytes, restored: UInt64, receiving: @escaping @Sendable (Progress, UInt64) -> Progress,
                 emit: @escaping @Sendable (Progress) -> Void) {
        self.received = received
        self.restored = restored
        self.receiving = receiving
        self.emit = emit
        received.listen { [weak self] count in self?.heard(count) }
    }

    /// The last value again, with `count` bytes received in this run.
    private func heard(_ count: UInt64) {
        latest.withLock { value in
            guard let current = value else { return }
            let next = receiving(current, restored + count)
            value = next
            emit(next)
        }
    }

    /// Emits `progress` (the job's own value after a written resource).
    package func report(_ progress: Progress) {
        latest.withLock { value in
            value = progress
            emit(progress)
        }
    }

    /// Stops hearing of received bytes.
    package func stop() {
        received.listen(nil)
    }
}
