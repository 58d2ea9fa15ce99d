#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// A WebSocket that connects again after a failure its policy names, keeping its listeners:
/// every task's events reach every listener in order, then a `.reconnecting` event before the
/// next task, whose stream is registered before it starts. The final `.closed` says why it
/// stopped (a close the policy does not retry, attempts used up, or `close()`). It runs until
/// then even when nothing else holds it: call `close()` when done.
public final class ReconnectingWebSocket: Sendable {
    /// A registered listener, to remove it.
    public struct Listener: Hashable, Sendable { let id: Int }

    private struct State {
        var current: WebSocketTask
        var listeners: [(id: Int, body: @Sendable (WebSocketEvent) -> Void)] = []
        var nextID = 0
        var isStopped = false
        var isStarted = false
        var final: WebSocketClose?
        /// The driver, cancelled by `close()` so a backoff wait ends at once.
        var driver: Task<Void, Never>?
        var waiters: [CheckedContinuation<WebSocketClose, Never>] = []
    }

    private let state: Lock<State>
    private let policy: WebSocketReconnectPolicy
    private let sleep: @Sendable (Duration) async -> Void

    init(first: WebSocketTask, policy: WebSocketReconnectPolicy, sleep: @escaping @Sendable (Duration) async -> Void) {
        state = Lock(State(current: first))
        self.policy = policy
        self.sleep = sleep
    }

    /// The task now connecting or open.
    public var currentTask: WebSocketTask { state.withLock { $0.current } }

    /// Adds a listener; it sees every event from now on, across reconnects. It runs on the
    /// connection's driver task, in order: keep it short.
    @discardableResult
    public func addListener(_ body: @escaping @Sendable (WebSocketEvent) -> Void) -> Listener {
        state.withLock { state in
            state.nextID += 1
            state.listeners.append((state.nextID, body))
            return Listener(id: state.nextID)
        }
    }

    /// Removes a listener.
    public func removeListener(_ listener: Listener) {
        state.withLock { $0.listeners.removeAll { $0.id == listener.id } }
    }

    /// Starts the first task and the driver that follows it (once).
    public func start() {
        state.withLock { state in
            guard !state.isStarted else { return }
            state.isStarted = true
            state.driver = Task { await drive() }
        }
    }

    /// Sends on the current task.
    /// - Throws: `websocket-closed` while between connections or after the end.
    public func send(_ message: WebSocketMessage) async throws(HTTPError) {
        try await currentTask.send(message)
    }

    /// Stops reconnecting and closes the current task with `code`.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        let (task, driver) = state.withLock { state -> (WebSocketTask, Task<Void, Never>?) in
            state.isStopped = true
            return (state.current, state.driver)
        }
        task.close(code, reason: reason)
        driver?.cancel()   // ends a backoff wait; a task's events are read to their end regardless
    }

    /// Waits for the end: the close after which no further task was made.
    public func closed() async -> WebSocketClose {
        await withCheckedContinuation { continuation in
            let final = state.withLock { state -> WebSocketClose? in
                if let final = state.final { return final }
                state.waiters.append(continuation)
                return nil
            }
            if let final { continuation.resume(returning: final) }
        }
    }

    private func deliver(_ event: WebSocketEvent) {
        for listener in state.withLock({ $0.listeners }) { listener.body(event) }
    }

    private func drive() async {
        var task = currentTask
        var attempt = 0
        while true {
            task.start()
            var last = WebSocketClose(.networkFailure, reason: "The task ended without a close.")
            for await event in task.events {
                switch event {
                case .opened: attempt = 0
                case .closed(let close): last = close
                default: break
                }
                if case .closed = event { continue }   // said once, at the very end or as the reconnect's cause
                deliver(event)
            }
            attempt += 1
            let stopped = state.withLock { $0.isStopped }
            guard !stopped, policy.shouldReconnect(after: last), attempt <= policy.maximumAttempts else {
                finish(last)
                return
            }
            let next: WebSocketTask
            do {
                next = try task.retry()
            } catch {
                finish(.network(error))   // the next task could not be made: that is how it ends
                return
            }
            let delay = policy.delay(beforeAttempt: attempt)
            deliver(.reconnecting(attempt: attempt, delay: delay, after: last))
            await sleep(delay)
            let stillWanted = state.withLock { state -> Bool in
                guard !state.isStopped else { return false }
                state.current = next
                return true
            }
            guard stillWanted else {
                finish(WebSocketClose(.closedByClient, code: .normalClosure, reason: "Closed while waiting to reconnect."))
                return
            }
            task = next
        }
    }

    private func finish(_ close: WebSocketClose) {
        deliver(.closed(close))
        let waiters = state.withLock { state -> [CheckedContinuation<WebSocketClose, Never>] in
            state.final = close
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: close) }
    }
}
