import Synchronization

/// A client's bounded event stream: emitting never blocks or grows memory without limit. When
/// the consumer falls behind, the oldest buffered events are dropped and counted.
public final class HTTPEventStream: Sendable {
    private let stream: AsyncStream<HTTPEvent>
    private let continuation: AsyncStream<HTTPEvent>.Continuation
    private let droppedCount = Atomic<Int>(0)
    private let observed: Atomic<Bool>
    /// Hears every event as it is emitted instead of the stream (a job's one route for its events).
    private let handler: (@Sendable (HTTPEvent) -> Void)?

    /// A stream buffering at most `capacity` undelivered events.
    public convenience init(capacity: Int = 1024) {
        self.init(capacity: capacity, waitsForObserver: false)
    }

    /// A stream that, with `waitsForObserver`, takes no events until `events` is first read (a
    /// client's own stream: nobody pays for events nobody reads).
    init(capacity: Int, waitsForObserver: Bool) {
        (stream, continuation) = AsyncStream.makeStream(of: HTTPEvent.self, bufferingPolicy: .bufferingNewest(max(1, capacity)))
        observed = Atomic(!waitsForObserver)
        handler = nil
    }

    /// A stream whose events go straight to `handler`, on the emitting task, in order: nothing
    /// is buffered, dropped or forwarded by a task of its own.
    package init(handler: @escaping @Sendable (HTTPEvent) -> Void) {
        (stream, continuation) = AsyncStream.makeStream(of: HTTPEvent.self, bufferingPolicy: .bufferingNewest(1))
        observed = Atomic(true)
        self.handler = handler
    }

    /// The events, for one consumer.
    public var events: AsyncStream<HTTPEvent> {
        observed.store(true, ordering: .relaxed)
        return stream
    }

    /// Whether events are being taken.
    var isActive: Bool { observed.load(ordering: .relaxed) }

    /// Emits an event.
    public func emit(_ event: HTTPEvent) {
        if let handler { return handler(event) }
        if case .dropped = continuation.yield(event) { droppedCount.add(1, ordering: .relaxed) }
    }

    /// How many events were dropped because the consumer fell behind.
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Ends the stream (the client shut down).
    public func finish() { continuation.finish() }
}
