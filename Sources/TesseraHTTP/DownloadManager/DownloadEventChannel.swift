/// The manager's event stream: an ordered queue where a download's undelivered progress event is
/// replaced in place by its newer progress (coalesced, bounded by one per download), and every
/// other event is kept. One consumer.
final class DownloadEventChannel: Sendable {
    private struct State {
        var queue: [DownloadEvent] = []
        var waiter: CheckedContinuation<DownloadEvent?, Never>?
        var finished = false
    }

    private let state = Lock(State())

    func emit(_ event: DownloadEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<DownloadEvent?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if event.isProgress, let index = state.queue.lastIndex(where: { $0.id == event.id }), state.queue[index].isProgress {
                state.queue[index] = event
            } else {
                state.queue.append(event)
            }
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
