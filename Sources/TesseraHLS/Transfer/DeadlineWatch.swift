import TesseraSupport

/// The deadlines of one transfer's resources in flight, watched by one task on the client's clock
/// — a look every `tick` while any resource is in flight, none while there is none — instead of a
/// timer and a task group per resource (which cost 80 µs a segment). A resource past its deadline
/// has its requests cancelled by tag; its processor then fails it with `fetch-failed` naming the
/// deadline.
package final class DeadlineWatch: Sendable {
    /// How often the watch looks while resources are in flight: deadlines hold to within it.
    package static let tick: Duration = .seconds(1)

    private struct Entry {
        let start: Duration
        var limit: Duration?
        var isExpired = false
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        /// The watch waiting for a first entry.
        var waiter: CheckedContinuation<Void, Never>?
        var isStopped = false
    }

    /// The deadline rule; nil when resources have none.
    package let deadline: ResourceDeadline?
    private let state = Lock(State())
    private let elapsed: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let cancel: @Sendable (String) -> Void

    /// A watch of `deadline` on `clock`; `cancel` cancels the requests carrying a tag.
    package init(deadline: ResourceDeadline?, clock: any Clock<Duration>, cancel: @escaping @Sendable (String) -> Void) {
        self.deadline = deadline
        self.cancel = cancel
        let timing = ElapsedClock(clock)
        (elapsed, sleep) = (timing.elapsed, timing.sleep)
    }

    /// Starts the deadline of a resource of `expected` bytes (its byte range), or of unknown size
    /// until its head arrives; nil when resources have no deadline.
    package func begin(expected: UInt64?) -> ResourceTimer? {
        guard let deadline else { return nil }
        let limit = expected.map(deadline.limit(forBytes:)) ?? deadline.headroom
        let now = elapsed()
        let (id, waiter) = state.withLock { state -> (UInt64, CheckedContinuation<Void, Never>?) in
            state.nextID += 1
            state.entries[state.nextID] = Entry(start: now, limit: limit)
            defer { state.waiter = nil }
            return (state.nextID, state.waiter)
        }
        waiter?.resume()
        return ResourceTimer(id: id, watch: self, deadline: deadline, isFixed: expected != nil)
    }

    func limit(of id: UInt64) -> Duration? { state.withLock { $0.entries[id]?.limit } }

    func setLimit(of id: UInt64, _ limit: Duration?) { state.withLock { $0.entries[id]?.limit = limit } }

    func end(_ id: UInt64) -> Bool { state.withLock { $0.entries.removeValue(forKey: id)?.isExpired ?? false } }

    /// Watches until cancelled: while resources are in flight, every `tick` on the clock, cancels
    /// those past their deadline. Returns at once when resources have no deadline.
    package func watch() async {
        guard deadline != nil else { return }
        state.withLock { $0.isStopped = false }
        while !Task.isCancelled {
            await waitForEntries()
            do { try await sleep(Self.tick) } catch { return }
            expireOverdue()
        }
    }

    private func waitForEntries() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    guard state.entries.isEmpty, !state.isStopped else { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.isStopped = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    private func expireOverdue() {
        let now = elapsed()
        let overdue = state.withLock { state -> [UInt64] in
            var overdue: [UInt64] = []
            for (id, entry) in state.entries where !entry.isExpired {
                guard let limit = entry.limit, now - entry.start >= limit else { continue }
                state.entries[id]?.isExpired = true
                overdue.append(id)
            }
            return overdue
        }
        for id in overdue { cancel(Self.tag(id)) }
    }

    /// The cancellation tag of the requests of resource `id`.
    static func tag(_ id: UInt64) -> String { "tessera.deadline.\(id)" }
}
