import TesseraSupport
/// The manager's event stream: an ordered queue where a download's undelivered progress event is
/// replaced in place by its newer progress (coalesced, at most one per download). Lifecycle
/// events (`added`, `paused`, `completed`, `failed`, `removed`) are always kept; when a reader
/// falls `capacity` events behind, the oldest transient ones (`started`, `retrying`, `restarted`,
/// progress) are dropped and counted. One consumer.
final class DownloadEventChannel: Sendable {
    private struct State {
        var queue: [DownloadEvent] = []
        var waiter: CheckedContinuation<DownloadEvent?, Never>?
        var finished = false
        var dropped = 0
    }

    private let state = Lock(State())
    private let capacity: Int

    init(capacity: Int = 4096) { self.capacity = max(1, capacity) }

    /// Transient events dropped because the reader fell behind.
    var dropped: Int { state.withLock { $0.dropped } }

    func emit(_ event: DownloadEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<DownloadEvent?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if event.isProgress, let index = state.queue.lastIndex(where: { $0.id == event.id }), state.queue[index].isProgress {
                state.queue[index] = event
                return nil
            }
            if state.queue.count >= capacity {
                guard let oldest = state.queue.firstIndex(where: { !$0.isLifecycle }) else {
                    // Only lifecycle events are waiting: a transient one is the one to lose.
                    if !event.isLifecycle {
                        state.dropped += 1
                        return nil
                    }
                    state.queue.append(event)
                    return nil
                }
                state.queue.remove(at: oldest)
                state.dropped += 1
            }
            state.queue.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<DownloadEvent?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.queue.isEmpty ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> DownloadEvent? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> DownloadEvent?? in
                if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// The events of a `DownloadManager`, for one consumer.
public struct DownloadEvents: AsyncSequence, Sendable {
    public typealias Element = DownloadEvent
    let channel: DownloadEventChannel

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: DownloadEventChannel
        /// The next event, or nil once the manager shut down and everything was delivered.
        public mutating func next() async -> DownloadEvent? { await channel.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: channel) }
}
