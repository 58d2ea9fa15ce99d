import TesseraSupport

/// Hands live snapshots from a reloader to one consumer without ever queueing: at most one
/// snapshot waits, and a newer one is coalesced into it (`LiveSnapshot.coalesced(with:)`), so a
/// slow consumer gets the latest state with every change since it last looked, and the
/// reloader never blocks or grows memory. An `AsyncSequence` of one consumer; it ends after
/// `finish()` once the waiting snapshot is taken, or when the consuming task is cancelled.
public final class SnapshotChannel: AsyncSequence, Sendable {
    public typealias Element = LiveSnapshot

    private struct State {
        var pending: LiveSnapshot?
        var waiter: CheckedContinuation<LiveSnapshot?, Never>?
        var finished = false
    }

    private let state = Lock(State())

    /// An empty channel.
    public init() {}

    /// Offers the next snapshot: to the waiting consumer, else coalesced into the one waiting.
    public func send(_ snapshot: LiveSnapshot) {
        let waiter = state.withLock { state -> CheckedContinuation<LiveSnapshot?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = state.pending.map { $0.coalesced(with: snapshot) } ?? snapshot
            return nil
        }
        waiter?.resume(returning: snapshot)
    }

    /// No more snapshots: the consumer gets the waiting one, then the end.
    public func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<LiveSnapshot?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next snapshot, waiting for one; nil at the end or when the task is cancelled.
    func next() async -> LiveSnapshot? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LiveSnapshot?, Never>) in
                let ready = state.withLock { state -> LiveSnapshot?? in
                    if let pending = state.pending {
                        state.pending = nil
                        return .some(pending)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<LiveSnapshot?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Iterates the snapshots.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: SnapshotChannel
        public mutating func next() async -> LiveSnapshot? { await channel.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}
