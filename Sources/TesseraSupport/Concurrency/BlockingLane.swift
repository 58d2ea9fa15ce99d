import Dispatch

/// Blocking work — file writes, `fsync`, renames — taken off Swift's cooperative pool onto a
/// serial dispatch queue of its own, one piece at a time in the order given, while the caller's
/// task waits suspended. The pool has a thread a core: a disk that stalls (a journal commit,
/// writeback throttling) under work run on it holds up every task of the process — the reload
/// timers of a hundred channels among them — where on a lane it holds up the lane's owner alone.
public struct BlockingLane: Sendable {
    private let queue: DispatchQueue

    /// A lane of its own, named `label` (as debuggers and `top -H` show its thread).
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` on the lane and returns what it returned, or throws what it threw.
    public func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(Failure) { continuation.resume(returning: .success(try body())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
