import Foundation
import TesseraHTTP
import TesseraTestSupport

/// Shared set-up for WebSocket tests: a client allowed plain ws on loopback, no proxy.
enum WebSocketHarness {
    static func client(_ adjust: (inout WebSocketConfiguration) -> Void = { _ in }) -> WebSocketClient {
        var configuration = WebSocketConfiguration()
        configuration.allowsPlainText = true
        configuration.heartbeat = nil
        adjust(&configuration)
        var transport = CurlTransport.Configuration()
        transport.proxy = .none
        return WebSocketClient(configuration: configuration, transport: transport)
    }

    /// The task's events up to and including `closed`.
    static func collect(_ task: WebSocketTask) async -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        for await event in task.events { events.append(event) }
        return events
    }

    /// The close that ended a task.
    static func close(of events: [WebSocketEvent]) -> WebSocketClose? {
        guard case .closed(let close)? = events.last else { return nil }
        return close
    }

    /// The messages among `events`.
    static func messages(_ events: [WebSocketEvent]) -> [WebSocketMessage] {
        events.compactMap { if case .message(let m) = $0 { m } else { nil } }
    }

    /// Reads events until `matching` is true; returns those read.
    static func read(_ iterator: inout WebSocketEvents.AsyncIterator, until matching: (WebSocketEvent) -> Bool) async -> [WebSocketEvent] {
        var seen: [WebSocketEvent] = []
        while let event = await iterator.next() {
            seen.append(event)
            if matching(event) { break }
        }
        return seen
    }

    static func isOpen(_ event: WebSocketEvent) -> Bool { event == .state(.open) }
}
