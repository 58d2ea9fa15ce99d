#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One WebSocket connection attempt and its life, from a `WebSocketClient`.
///
/// Its event stream exists from the moment the task is made, so nothing is missed between
/// `start()` and the first read. Sends made before the upgrade completes wait for it. A task
/// runs once; `retry()` makes a fresh, unstarted task for the same request. A started task runs
/// until it closes or is cancelled — letting go of it does not end it (its events may still be
/// being read): call `close()` or `cancel()`.
///
/// ```swift
/// let task = try client.task(URL(string: "wss://example.com/feed")!)
/// task.start()
/// try await task.send(.text("subscribe"))
/// for await event in task.events {
///     if case .message(let message) = event { print(message) }
///     if case .closed(let close) = event { print(close) }
/// }
/// ```
public final class WebSocketTask: Sendable {
    /// The URL asked for (`ws` or `wss`).
    public let url: URL
    /// State changes, the handshake, messages, pongs and the closing `closed` event, in order.
    public let events: WebSocketEvents
    let connection: WebSocketConnection
    private let headers: HTTPHeaders
    private let protocols: [String]
    private let client: WebSocketClient

    init(url: URL, headers: HTTPHeaders, protocols: [String], client: WebSocketClient) throws(HTTPError) {
        self.url = url
        self.headers = headers
        self.protocols = protocols
        self.client = client
        var fields = client.configuration.headers
        fields.overlay(headers)
        connection = try WebSocketConnection(url: url, headers: fields, protocols: protocols,
                                             configuration: client.configuration, transport: client.transport)
        events = WebSocketEvents(channel: connection.channel)
    }

    /// Where the task is.
    public var state: WebSocketState { connection.state }

    /// The connection's I/O thread as a task executor. A consumer that prefers it
    /// (`withTaskExecutorPreference(task.executor) { … }`) reads each event on the thread that
    /// received it and writes its sends there — a message and its answer cross no thread. While
    /// its code runs the connection is not served: keep it short and never block in it. After
    /// the connection has ended, such a task runs on the global concurrent executor.
    public var executor: any TaskExecutor { connection.executor }

    /// Connects and upgrades on the task's own I/O thread. Calling it again does nothing.
    public func start() { connection.start() }

    /// Sends a message; returns once its bytes are handed to the socket.
    /// - Throws: `websocket-closed` when the task is closing or closed (or ends before the
    ///   message is written); `queue-full` past `maximumQueuedBytes`.
    public func send(_ message: WebSocketMessage) async throws(HTTPError) {
        switch message {
        case .text(let text): try await connection.send(.text, Array(text.utf8)).get()
        case .binary(let data): try await connection.send(.binary, data).get()
        }
    }

    /// Sends a ping (at most 125 bytes); its pong arrives as a `.pong` event.
    /// - Throws: `websocket-closed`, or `bad-header` for a payload over 125 bytes.
    public func ping(_ payload: Data = Data()) async throws(HTTPError) {
        try await connection.send(.ping, [UInt8](payload)).get()
    }

    /// Begins the closing handshake with `code` (a code no endpoint may send becomes 1000) and
    /// `reason` (cut to 123 bytes). The task ends `closedByClient` once the server answers, or
    /// with a `close-timeout` network failure after `closeTimeout`.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        connection.close(code, reason: reason)
    }

    /// Drops the connection at once, without a closing handshake; the task ends `cancelled`.
    public func cancel() { connection.cancel() }

    /// A fresh task for the same URL, headers and subprotocols, not started: its event stream
    /// is in place before `start()`.
    /// - Throws: as `WebSocketClient.task`.
    public func retry() throws(HTTPError) -> WebSocketTask {
        try WebSocketTask(url: url, headers: headers, protocols: protocols, client: client)
    }
}
