import Dispatch

/// The threads blocking work runs on — a fixed number at most, started as work first needs them
/// and kept — shared by every `BlockingLane` of the process. A lane's work runs one piece at a
/// time in its order; lanes take turns, a piece each. Dispatch's global queues start another
/// thread whenever those they have block, so a disk that stalls under a hundred channels' writes
/// grew a recorder to 52 threads, each keeping the stack pages it had touched (a step in the
/// resident size that never came back); here a stalled disk holds `limit` threads and the rest
/// of the work waits its turn.
///
/// `@unchecked Sendable`: its state is behind a `Lock`, the semaphore is thread-safe.
package final class BlockingPool: @unchecked Sendable {
    /// The process's pool: 8 threads (a disk takes a few writes and fsyncs at once; more threads
    /// only queue in the kernel instead of here).
    package static let shared = BlockingPool(limit: 8)

    /// One lane's queue of work, scheduled on the pool while it holds any.
    /// `@unchecked Sendable`: its only state is behind a `Lock`.
    final class Mailbox: @unchecked Sendable {
        /// The work and whether the lane is in the pool's ready queue (or running).
        private let state = Lock<(work: [() -> Void], scheduled: Bool)>(([], false))

        /// Adds `work`; true when the lane must be scheduled (it was idle).
        func add(_ work: @escaping () -> Void) -> Bool {
            state.withLock { state in
                state.work.append(work)
                defer { state.scheduled = true }
                return !state.scheduled
            }
        }

        /// Runs the oldest piece of work; true when more waits (the lane goes back in line).
        func runOne() -> Bool {
            let next = state.withLock { state in state.work.isEmpty ? nil : state.work.removeFirst() }
            next?()
            return state.withLock { state in
                state.scheduled = !state.work.isEmpty
                return state.scheduled
            }
        }
    }

    private struct State {
        var ready: [Mailbox] = []
        var head = 0
        var threads = 0
        var idle = 0
    }

    private let limit: Int
    private let state = Lock(State())
    private let wake = DispatchSemaphore(value: 0)

    /// A pool of at most `limit` threads.
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The threads started so far.
    package var threads: Int { state.withLock { $0.threads } }

    /// Puts `mailbox` in line: an idle thread takes it, or a new one while fewer than `limit`
    /// run, or the next thread that finishes.
    func schedule(_ mailbox: Mailbox) {
        let (signal, start) = state.withLock { state -> (Bool, Bool) in
            state.ready.append(mailbox)
            if state.idle > 0 {
                state.idle -= 1
                return (true, false)
            }
            guard state.threads < limit else { return (false, false) }
            state.threads += 1
            return (false, true)
        }
        if signal { wake.signal() }
        if start, OSThread.start({ [self] in work() }) != 0 {
            // No thread could be started (the process is at its limit): dispatch runs it.
            state.withLock { $0.threads -= 1 }
            DispatchQueue.global().async { [self] in runNext(countingIdle: false) }
        }
    }

    /// A thread of the pool: runs what is in line, waits when nothing is.
    private func work() {
        while true {
            if !runNext(countingIdle: true) { wake.wait() }
        }
    }

    /// Runs one piece of the first lane in line; false when none is (a pool thread, about to
    /// wait, `countingIdle`).
    @discardableResult
    private func runNext(countingIdle: Bool) -> Bool {
        let next = state.withLock { state -> Mailbox? in
            guard state.head < state.ready.count else {
                if countingIdle { state.idle += 1 }
                return nil
            }
            let mailbox = state.ready[state.head]
            state.head += 1
            if state.head > 64, state.head * 2 > state.ready.count {
                state.ready.removeFirst(state.head)
                state.head = 0
            }
            return mailbox
        }
        guard let next else { return false }
        if next.runOne() { schedule(next) }
        return true
    }
}
