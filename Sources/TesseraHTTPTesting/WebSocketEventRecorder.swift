import TesseraHTTP
import TesseraSupport

/// Keeps every event a WebSocket task or a reconnecting connection reports, for assertions:
/// give `record` to `addListener`, or let `drain(_:)` read a task's stream; `wait(for:)` returns
/// once a matching event has arrived (no sleeps), with the events up to it.
///
/// ```swift
/// let recorder = WebSocketEventRecorder()
/// socket.addListener(recorder.record)
/// socket.start()
/// await recorder.wait { if case .message = $0 { true } else { false } }
/// #expect(recorder.messages == [.text("hello")])
/// ```
public final class WebSocketEventRecorder: Sendable {
    private struct State {
        var events: [WebSocketEvent] = []
        var waiters: [(matches: @Sendable (WebSocketEvent) -> Bool, continuation: CheckedContinuation<[WebSocketEvent], Never>)] = []
    }

    private let state = Lock(State())

    /// An empty recorder.
    public init() {}

    /// Records an event (a listener).
    @Sendable public func record(_ event: WebSocketEvent) {
        let ready = state.withLock { state -> [(CheckedContinuation<[WebSocketEvent], Never>, [WebSocketEvent])] in
            state.events.append(event)
            var ready: [(CheckedContinuation<[WebSocketEvent], Never>, [WebSocketEvent])] = []
            state.waiters.removeAll { waiter in
                guard waiter.matches(event) else { return false }
                ready.append((waiter.continuation, state.events))
                return true
            }
            return ready
        }
        for (continuation, events) in ready { continuation.resume(returning: events) }
    }

    /// Records a task's events until its stream ends.
    public func drain(_ task: WebSocketTask) async {
        for await event in task.events { record(event) }
    }

    /// Everything recorded, in order.
    public var events: [WebSocketEvent] { state.withLock { $0.events } }

    /// The messages recorded, in order.
    public var messages: [WebSocketMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    /// The close that ended it, once recorded.
    public var close: WebSocketClose? {
        events.lazy.compactMap { if case .closed(let close) = $0 { close } else { nil } }.first
    }

    /// Waits for an event (already recorded, or to come) that `matches`; returns the events up
    /// to and including it.
    @discardableResult
    public func wait(for matches: @escaping @Sendable (WebSocketEvent) -> Bool) async -> [WebSocketEvent] {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> [WebSocketEvent]? in
                if let index = state.events.firstIndex(where: matches) { return Array(state.events[...index]) }
                state.waiters.append((matches, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }
}
