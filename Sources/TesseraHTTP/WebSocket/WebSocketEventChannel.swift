import TesseraSupport

/// A task's events for one reader, in order, never dropped. Bounded by back-pressure instead:
/// the connection reads the socket only while `hasRoom`, so a slow reader slows the server
/// (through TCP) rather than losing messages or growing memory. A few lifecycle events (state,
/// close) may go past the capacity. When a full buffer drains to half, `onRoom` wakes the
/// connection to read again.
final class WebSocketEventChannel: Sendable {
    private struct State {
        var queue: [WebSocketEvent] = []
        var head = 0
        var waiter: CheckedContinuation<WebSocketEvent?, Never>?
        var finished = false
        var wasFull = false
        var onRoom: (@Sendable () -> Void)?
        var count: Int { queue.count - head }
    }

    private let state = Lock(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Called (once per drain) when a full buffer has room again.
    func setOnRoom(_ body: @escaping @Sendable () -> Void) { state.withLock { $0.onRoom = body } }

    /// True while fewer than `capacity` events wait, counting `pending` about to be emitted.
    func hasRoom(beyond pending: Int = 0) -> Bool {
        state.withLock { state in
            let room = state.count + pending < capacity
            if !room { state.wasFull = true }
            return room
        }
    }

    /// Queues an event (or hands it to a waiting reader).
    func emit(_ event: WebSocketEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<WebSocketEvent?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.queue.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// Ends the stream after the queued events.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<WebSocketEvent?, Never>? in
            state.finished = true
            state.onRoom = nil
            defer { state.waiter = nil }
            return state.count == 0 ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    /// The next event, or nil after the last one.
    func next() async -> WebSocketEvent? {
        var wake: (@Sendable () -> Void)?
        let event = await withCheckedContinuation { (continuation: CheckedContinuation<WebSocketEvent?, Never>) in
            let ready = state.withLock { state -> WebSocketEvent?? in
                var taken: WebSocketEvent?? = nil
                if state.count > 0 {
                    let event = state.queue[state.head]
                    state.head += 1
                    if state.head == state.queue.count {
                        state.queue.removeAll(keepingCapacity: true)
                        state.head = 0
                    } else if state.head >= 1024, state.head * 2 >= state.queue.count {
                        state.queue.removeFirst(state.head)
                        state.head = 0
                    }
                    taken = .some(event)
                } else if state.finished {
                    taken = .some(nil)
                } else {
                    state.waiter = continuation
                }
                // Checked whether this call took an event or waits: the connection may have found
                // the buffer full just before the reader emptied it, and must hear of the room.
                if state.wasFull, state.count <= capacity / 2 {
                    state.wasFull = false
                    wake = state.onRoom
                }
                return taken
            }
            if let ready { continuation.resume(returning: ready) }
        }
        wake?()
        return event
    }
}

/// A WebSocket task's events, for one reader: state changes, messages, pongs, and the close
/// that ends them. Lossless and bounded (a slow reader slows the connection).
public struct WebSocketEvents: AsyncSequence, Sendable {
    public typealias Element = WebSocketEvent
    let channel: WebSocketEventChannel

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let channel: WebSocketEventChannel
        /// The next event, or nil after `closed`.
        public mutating func next() async -> WebSocketEvent? { await channel.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: channel) }
}
