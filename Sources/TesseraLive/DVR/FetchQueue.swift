import TesseraHLS
import TesseraSupport

/// The open-ended input of a recording's transfer engine: the recorder pushes each planned
/// fetch as a snapshot makes it known, the engine pulls them in order. Bounded: `push` waits
/// while `capacity` fetches are queued (the recorder then reads no further snapshots — they
/// coalesce — so a slow network never grows memory). One producer, one consumer. Ends after
/// `finish()` once drained; `next` returns nil at once when the consuming task is cancelled.
final class FetchQueue: AsyncSequence, Sendable {
    typealias Element = PlannedFetch
    typealias Failure = HLSError

    private struct State {
        var queued: [PlannedFetch] = []
        var head = 0
        var consumer: CheckedContinuation<PlannedFetch?, Never>?
        var producer: CheckedContinuation<Void, Never>?
        var finished = false
        var count: Int { queued.count - head }
    }

    private let capacity: Int
    private let state = Lock(State())

    /// A queue of at most `capacity` fetches.
    init(capacity: Int) {
        precondition(capacity > 0, "a queue holds at least one fetch")
        self.capacity = capacity
    }

    /// Queues `fetch`, waiting while the queue is full (or returning at once once finished).
    func push(_ fetch: PlannedFetch) async {
        while true {
            let full = state.withLock { $0.count >= capacity && !$0.finished }
            guard full else { break }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let wait = state.withLock { state -> Bool in
                    guard state.count >= capacity, !state.finished else { return false }
                    state.producer = continuation
                    return true
                }
                if !wait { continuation.resume() }
            }
        }
        let consumer = state.withLock { state -> CheckedContinuation<PlannedFetch?, Never>? in
            guard !state.finished else { return nil }
            if let consumer = state.consumer {
                state.consumer = nil
                return consumer
            }
            state.queued.append(fetch)
            return nil
        }
        consumer?.resume(returning: fetch)
    }

    /// Whether `finish()` was called.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// No more fetches: the consumer drains what is queued, then ends; a waiting producer returns.
    func finish() {
        let (consumer, producer) = state.withLock { state in
            state.finished = true
            defer { state.consumer = nil; state.producer = nil }
            return (state.count == 0 ? state.consumer : nil, state.producer)
        }
        consumer?.resume(returning: nil)
        producer?.resume()
    }

    private func next() async -> PlannedFetch? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PlannedFetch?, Never>) in
                let (ready, producer) = state.withLock { state -> (PlannedFetch??, CheckedContinuation<Void, Never>?) in
                    if state.count > 0 {
                        let fetch = state.queued[state.head]
                        state.head += 1
                        if state.head > 64, state.head * 2 > state.queued.count {
                            state.queued.removeFirst(state.head)
                            state.head = 0
                        }
                        defer { state.producer = nil }
                        return (.some(fetch), state.producer)
                    }
                    if state.finished || Task.isCancelled { return (.some(nil), nil) }
                    state.consumer = continuation
                    return (.none, nil)
                }
                producer?.resume()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let consumer = state.withLock { state -> CheckedContinuation<PlannedFetch?, Never>? in
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(returning: nil)
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = HLSError
        let queue: FetchQueue
        mutating func next() async throws(HLSError) -> PlannedFetch? { await queue.next() }
        mutating func next(isolation actor: isolated (any Actor)?) async throws(HLSError) -> PlannedFetch? { await queue.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: self) }
}
