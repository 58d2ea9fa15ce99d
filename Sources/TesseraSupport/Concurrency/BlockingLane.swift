/// Blocking work — file writes, `fsync`, renames — taken off Swift's cooperative pool onto a
/// lane of its own, one piece at a time in the order given, while the caller's task waits
/// suspended. The pool has a thread a core: a disk that stalls (a journal commit, writeback
/// throttling) under work run on it holds up every task of the process — the reload timers of a
/// hundred channels among them — where on a lane it holds up the lane's owner alone. Lanes run
/// on the threads of a `BlockingPool` (the process's, unless given one), a bounded number.
public struct BlockingLane: Sendable {
    /// What the lane is for (as a debugger shows it).
    public let label: String
    private let mailbox = BlockingPool.Mailbox()
    private let pool: BlockingPool

    /// A lane of its own on the process's pool; `label` says what it is for.
    public init(label: String) {
        self.init(label: label, pool: .shared)
    }

    /// A lane of its own on `pool`.
    package init(label: String, pool: BlockingPool) {
        self.label = label
        self.pool = pool
    }

    /// Runs `body` on the lane and returns what it returned, or throws what it threw.
    public func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let (mailbox, pool) = (self.mailbox, self.pool)
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            let idle = mailbox.add {
                do throws(Failure) { continuation.resume(returning: .success(try body())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            if idle { pool.schedule(mailbox) }
        }
        return try result.get()
    }
}
