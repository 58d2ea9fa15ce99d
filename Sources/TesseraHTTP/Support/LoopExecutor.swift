#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// Runs tasks on one of the house's loop threads — the HTTP engine's, a WebSocket connection's —
/// between its rounds: an event loop's executor. A task that prefers it
/// (`withTaskExecutorPreference`) is resumed on the thread that has its answer, and what it sends
/// next is taken up there: an exchange crosses no thread. Jobs the thread enqueues itself run
/// before it next waits; others wake it. Before the thread has started and once it has ended,
/// jobs go to the global concurrent executor, so a task that prefers this one runs either way.
///
/// Code running here holds up the loop while it runs: keep it short and never block.
final class LoopExecutor: TaskExecutor, @unchecked Sendable {   // state behind `queue`
    private struct Queue {
        var jobs: [UnownedJob] = []
        /// The connection's thread while it runs jobs; nil before and after.
        var thread: pthread_t?
    }

    private let queue = Lock(Queue())
    private let wakeUp: @Sendable () -> Void

    /// An executor whose thread `wakeUp` wakes. `wakeUp` is called under the executor's lock and
    /// never after `close()`, so it may use what the thread frees once it has closed the executor.
    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let accepted = queue.withLock { queue -> Bool in
            guard let thread = queue.thread else { return false }
            queue.jobs.append(unowned)
            if pthread_equal(thread, pthread_self()) == 0 { wakeUp() }
            return true
        }
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(unowned)) }
    }

    /// The calling thread is the loop's: it runs the jobs from now on.
    func adoptCurrentThread() {
        queue.withLock { $0.thread = pthread_self() }
    }

    /// Whether the caller runs on the loop's thread.
    var isCurrentThread: Bool {
        queue.withLock { queue in queue.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Whether jobs are waiting (the thread must not sleep on them).
    var hasJobs: Bool { queue.withLock { !$0.jobs.isEmpty } }

    /// Runs the jobs waiting now, and those they enqueue, up to `limit` batches (the rest wait for
    /// the next round, so sockets are still served). On the loop's thread only.
    func runJobs(limit: Int = 16) {
        for _ in 0..<limit {
            let jobs = queue.withLock { queue -> [UnownedJob] in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return queue.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// The thread is ending: jobs waiting and jobs to come go to the global concurrent executor.
    func close() {
        let jobs = queue.withLock { queue -> [UnownedJob] in
            queue.thread = nil
            defer { queue.jobs = [] }
            return queue.jobs
        }
        for job in jobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
