import Synchronization

/// A client's bounded event stream: emitting never blocks or grows memory without limit. When
/// the consumer falls behind, the oldest buffered events are dropped and counted.
public final class HTTPEventStream: Sendable {
    /// The events, for one consumer.
    public let events: AsyncStream<HTTPEvent>
    private let continuation: AsyncStream<HTTPEvent>.Continuation
    private let droppedCount = Atomic<Int>(0)

    /// A stream buffering at most `capacity` undelivered events.
    public init(capacity: Int = 1024) {
        (events, continuation) = AsyncStream.makeStream(of: HTTPEvent.self, bufferingPolicy: .bufferingNewest(max(1, capacity)))
    }

    /// Emits an event.
    public func emit(_ event: HTTPEvent) {
        if case .dropped = continuation.yield(event) { droppedCount.add(1, ordering: .relaxed) }
    }

    /// How many events were dropped because the consumer fell behind.
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Ends the stream (the client shut down).
    public func finish() { continuation.finish() }
}
