import Foundation
import Synchronization

/// Ends the process when one case runs longer than its bound: a hang is a failure the gate must
/// report (naming the case) rather than wait out. A detached thread checks the running case's
/// start every 100 ms; `_exit` because a hung reader holds the main thread.
final class Watchdog: Sendable {
    private struct Running {
        var label: String
        var started: ContinuousClock.Instant
    }

    private let running = Mutex<Running?>(nil)
    private let bound: Duration

    init(bound: Duration) {
        self.bound = bound
        let thread = Thread { [self] in self.watch() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Marks `label` as running from now; nil when nothing runs.
    func begin(_ label: String?) {
        running.withLock { $0 = label.map { Running(label: $0, started: .now) } }
    }

    private func watch() {
        while true {
            usleep(100_000)   // a polling interval, not a wait for an outcome
            let overdue = running.withLock { running -> String? in
                guard let running, ContinuousClock.now - running.started > bound else { return nil }
                return running.label
            }
            if let overdue {
                say("mutations: FAILED — \(overdue) ran over \(bound) (a hang)")
                _exit(3)
            }
        }
    }
}
