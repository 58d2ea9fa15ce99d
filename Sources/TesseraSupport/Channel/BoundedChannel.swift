/// The one channel between tasks: producers hand elements to consumers in order through a
/// bounded buffer whose `ChannelPolicy` says what a full channel does — the producer waits
/// (`wait`), the oldest droppable element goes (`dropOldest`), or the producer is told to hold
/// off (`signal`) — and how a new element folds into one waiting (coalesced snapshots, the
/// latest progress). Any number of producers and consumers; each consumer's `next()` takes the
/// oldest element, waiting for one, and returns nil once the channel is finished and drained or
/// (as the policy says) when the consuming task is cancelled. A producer waiting for room
/// returns when an element is taken, the channel finishes, or its task is cancelled.
/// Continuations are resumed outside the lock, always exactly once.
public final class BoundedChannel<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private struct State {
        var buffer: ChannelBuffer<Element>
        var consumers: [(id: UInt64, continuation: CheckedContinuation<Element?, Never>)] = []
        var producers: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var finished = false
        var wasFull = false
        var onRoom: (@Sendable () -> Void)?
        var nextID: UInt64 = 0

        mutating func id() -> UInt64 {
            nextID += 1
            return nextID
        }

        /// After an element was taken: a producer waiting for room, and `onRoom` when a channel
        /// found full drained to half.
        mutating func roomMade() -> (producer: CheckedContinuation<Void, Never>?, onRoom: (@Sendable () -> Void)?) {
            let producer = !buffer.isFull && !producers.isEmpty ? producers.removeFirst().continuation : nil
            guard wasFull, buffer.count <= buffer.policy.capacity / 2 else { return (producer, nil) }
            wasFull = false
            return (producer, onRoom)
        }
    }

    /// What one attempt to add an element came to.
    private enum Attempt {
        case handed(CheckedContinuation<Element?, Never>)
        case accepted
        case refused
        case full
    }

    private let state: Lock<State>
    private let endsOnCancellation: Bool

    /// An empty channel with `policy`.
    public init(_ policy: ChannelPolicy<Element>) {
        state = Lock(State(buffer: ChannelBuffer(policy: policy)))
        endsOnCancellation = policy.endsOnCancellation
    }

    /// Elements waiting.
    public var count: Int { state.withLock { $0.buffer.count } }

    /// Elements a `dropOldest` overflow dropped.
    public var dropped: Int { state.withLock { $0.buffer.dropped } }

    /// Whether `finish()` was called.
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Adds `element` without waiting: to a waiting consumer, folded, or queued as the policy
    /// says. False when it was not taken: the channel is finished, a `wait` channel is full, or
    /// a `dropOldest` overflow dropped it.
    @discardableResult
    public func offer(_ element: Element) -> Bool {
        switch attempt(element) {
        case .handed(let consumer):
            consumer.resume(returning: element)
            return true
        case .accepted: return true
        case .refused, .full: return false
        }
    }

    /// Adds `element`, waiting while a `wait` channel is full. False when it was not taken: the
    /// channel finished, the task was cancelled while waiting, or a `dropOldest` overflow
    /// dropped it.
    public func send(_ element: Element) async -> Bool {
        while true {
            switch attempt(element) {
            case .handed(let consumer):
                consumer.resume(returning: element)
                return true
            case .accepted: return true
            case .refused: return false
            case .full: break
            }
            let id = state.withLock { $0.id() }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let waits = state.withLock { state -> Bool in
                        guard state.buffer.isFull, !state.finished, !Task.isCancelled else { return false }
                        state.producers.append((id, continuation))
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            } onCancel: {
                let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let index = state.producers.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.producers.remove(at: index).continuation
                }
                waiting?.resume()
            }
            if Task.isCancelled { return false }
        }
    }

    private func attempt(_ element: Element) -> Attempt {
        state.withLock { state -> Attempt in
            guard !state.finished else { return .refused }
            // A consumer waits only on an empty buffer: the element is the next either way.
            if !state.consumers.isEmpty { return .handed(state.consumers.removeFirst().continuation) }
            switch state.buffer.offer(element) {
            case .queued, .merged: return .accepted
            case .dropped: return .refused
            case .full: return .full
            }
        }
    }

    /// No more elements: consumers drain what waits, then get nil; waiting producers return.
    public func finish() {
        let (consumers, producers) = state.withLock { state in
            state.finished = true
            state.onRoom = nil
            defer { state.consumers = []; state.producers = [] }
            return (state.consumers.map(\.continuation), state.producers.map(\.continuation))
        }
        for consumer in consumers { consumer.resume(returning: nil) }
        for producer in producers { producer.resume() }
    }

    /// For a `signal` channel: whether fewer than the capacity wait, counting `pending`
    /// elements about to be offered. A false answer arms `onRoom`.
    public func hasRoom(beyond pending: Int = 0) -> Bool {
        state.withLock { state in
            let room = state.buffer.count + pending < state.buffer.policy.capacity
            if !room { state.wasFull = true }
            return room
        }
    }

    /// Called (once per drain) when a channel `hasRoom` found full has drained to half.
    public func setOnRoom(_ body: @escaping @Sendable () -> Void) { state.withLock { $0.onRoom = body } }

    /// The oldest element, waiting for one; nil once finished and drained, or when the task is
    /// cancelled (unless the policy reads to the end regardless).
    public func next() async -> Element? {
        // An element waiting is taken at once (one lock); else the consumer waits under an ID.
        let (taken, id, producer, onRoom) = state.withLock { state -> (Element?, UInt64, CheckedContinuation<Void, Never>?, (@Sendable () -> Void)?) in
            guard let element = state.buffer.take() else { return (nil, state.id(), nil, nil) }
            let (producer, onRoom) = state.roomMade()
            return (element, 0, producer, onRoom)
        }
        producer?.resume()
        onRoom?()
        if let taken { return taken }
        guard endsOnCancellation else { return await wait(id) }
        return await withTaskCancellationHandler {
            await wait(id)
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Element?, Never>? in
                guard let index = state.consumers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.consumers.remove(at: index).continuation
            }
            waiting?.resume(returning: nil)
        }
    }

    /// Waits as consumer `id` for the next element (nil at the end, or once cancelled when the
    /// policy ends on cancellation).
    private func wait(_ id: UInt64) async -> Element? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
            let (ready, producer, onRoom) = state.withLock { state -> (Element??, CheckedContinuation<Void, Never>?, (@Sendable () -> Void)?) in
                let ready: Element??
                if let element = state.buffer.take() {
                    ready = .some(element)
                } else if state.finished || (endsOnCancellation && Task.isCancelled) {
                    ready = .some(nil)
                } else {
                    state.consumers.append((id, continuation))
                    ready = .none
                }
                // Asked whether this call took an element or waits: a producer may have found
                // the channel full just before it emptied, and must hear of the room.
                let (producer, onRoom) = state.roomMade()
                return (ready, producer, onRoom)
            }
            producer?.resume()
            onRoom?()
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Iterates the elements.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let channel: BoundedChannel
        /// The next element; nil at the end.
        public mutating func next() async -> Element? { await channel.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}
