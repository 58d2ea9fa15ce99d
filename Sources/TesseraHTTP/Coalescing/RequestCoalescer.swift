/// Shares one in-flight operation among concurrent callers asking for the same key, so N
/// simultaneous requests for one playlist or key cost one fetch.
///
/// Each caller waits on its own; a caller that is cancelled stops waiting at once with a
/// `cancelled` error while the others keep waiting. The shared operation is cancelled only when
/// every caller has left. A call after the operation finished starts a new one (this is
/// coalescing, not caching).
public actor RequestCoalescer<Key: Hashable & Sendable, Value: Sendable> {
    private typealias Waiter = CheckedContinuation<Result<Value, HTTPError>, Never>

    private struct Flight {
        let id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: Waiter] = [:]
    }

    private var flights: [Key: Flight] = [:]
    private var nextID: UInt64 = 0

    /// An empty coalescer.
    public init() {}

    /// Runs `operation` for `key`, or joins the run already in flight for it, and returns its
    /// outcome.
    ///
    /// - Throws: the operation's error, shared by every caller of that run; `cancelled` when this
    ///   caller's task is cancelled while waiting.
    public func run(
        _ key: Key,
        _ operation: @escaping @Sendable () async throws(HTTPError) -> Value
    ) async throws(HTTPError) -> Value {
        let waiterID = takeID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                join(key, waiterID, continuation, operation)
            }
        } onCancel: {
            Task { await self.leave(key, waiterID) }
        }
        return try result.get()
    }

    /// How many callers are waiting on `key`'s run (0 when none is in flight).
    public func waiterCount(for key: Key) -> Int {
        flights[key]?.waiters.count ?? 0
    }

    private func takeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    private func join(_ key: Key, _ waiterID: UInt64, _ continuation: Waiter,
                      _ operation: @escaping @Sendable () async throws(HTTPError) -> Value) {
        guard !Task.isCancelled else {
            continuation.resume(returning: .failure(Self.cancelledError))
            return
        }
        if flights[key] != nil {
            flights[key]?.waiters[waiterID] = continuation
            return
        }
        let flightID = takeID()
        var flight = Flight(id: flightID)
        flight.waiters[waiterID] = continuation
        flights[key] = flight
        flights[key]?.task = Task {
            let outcome: Result<Value, HTTPError>
            do throws(HTTPError) { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
            self.finish(key, flightID, outcome)
        }
    }

    private func leave(_ key: Key, _ waiterID: UInt64) {
        guard let waiter = flights[key]?.waiters.removeValue(forKey: waiterID) else { return }
        waiter.resume(returning: .failure(Self.cancelledError))
        if let flight = flights[key], flight.waiters.isEmpty {
            flight.task?.cancel()
            flights[key] = nil
        }
    }

    private func finish(_ key: Key, _ flightID: UInt64, _ outcome: Result<Value, HTTPError>) {
        guard let flight = flights[key], flight.id == flightID else { return }
        flights[key] = nil
        for waiter in flight.waiters.values { waiter.resume(returning: outcome) }
    }

    private static var cancelledError: HTTPError {
        HTTPError(.cancelled, code: .cancelled, "The request was cancelled while waiting for a shared fetch.")
    }
}
