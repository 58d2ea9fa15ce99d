import Foundation
import Synchronization
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

@Suite("Reconnecting WebSocket")
struct ReconnectingWebSocketTests {
    typealias H = WebSocketHarness

    private func policy(attempts: Int = 3) -> WebSocketReconnectPolicy {
        var policy = WebSocketReconnectPolicy()
        policy.maximumAttempts = attempts
        policy.initialDelay = .seconds(1)
        policy.jitter = false
        return policy
    }

    /// A listener's view of every event, in order.
    final class Recorder: Sendable {
        let events = Mutex<[WebSocketEvent]>([])
        func record(_ event: WebSocketEvent) { events.withLock { $0.append(event) } }
        var all: [WebSocketEvent] { events.withLock { $0 } }
    }

    @Test("a network drop, then a reconnect: the listener sees both connections' messages and one final close")
    func dropThenReconnect() async throws {
        let connections = Mutex(0)
        let server = try WebSocketTestServer { peer in
            let n = connections.withLock { $0 += 1; return $0 }
            try peer.accept()
            if n == 1 {
                try peer.send(text: "one")
                peer.closeTCP()
            } else {
                try peer.send(text: "two")
                try peer.sendClose(1000, reason: "finished")
                _ = try? peer.awaitClose()
            }
        }
        let socket = try H.client().reconnecting(server.url(), policy: policy(), clock: ImmediateClock())
        let recorder = Recorder()
        socket.addListener { recorder.record($0) }
        let removed = Recorder()
        let token = socket.addListener { removed.record($0) }
        socket.removeListener(token)
        socket.start()
        let final = await socket.closed()
        #expect(final.kind == .closedByServer && final.code == .normalClosure && final.reason == "finished")
        let events = recorder.all
        #expect(H.messages(events) == [.text("one"), .text("two")])
        let reconnects = events.compactMap { if case .reconnecting(let attempt, let delay, let after) = $0 { (attempt, delay, after.kind) } else { nil } }
        #expect(reconnects.count == 1 && reconnects.first?.0 == 1 && reconnects.first?.1 == .seconds(1) && reconnects.first?.2 == .networkFailure)
        #expect(events.filter { $0 == .state(.open) }.count == 2)
        #expect(events.filter { if case .closed = $0 { true } else { false } }.count == 1 && H.close(of: events) == final)
        #expect(removed.all.isEmpty)
        #expect(connections.withLock { $0 } == 2)
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }

    @Test("a refusal that will not fix itself (404) is not retried")
    func refusalNotRetried() async throws {
        let server = try WebSocketTestServer { try $0.refuse(404) }
        let socket = try H.client().reconnecting(server.url(), policy: policy(), clock: ImmediateClock())
        socket.start()
        let final = await socket.closed()
        #expect(final.kind == .handshakeRefused && final.status == 404)
        #expect(server.requests.count == 1)
    }

    @Test("a server that keeps failing: attempts run out, backoff doubling, then the last failure")
    func attemptsRunOut() async throws {
        let server = try WebSocketTestServer { try $0.refuse(503) }
        let socket = try H.client().reconnecting(server.url(), policy: policy(attempts: 3), clock: ImmediateClock())
        let recorder = Recorder()
        socket.addListener { recorder.record($0) }
        socket.start()
        let final = await socket.closed()
        #expect(final.kind == .handshakeRefused && final.status == 503)
        let delays = recorder.all.compactMap { if case .reconnecting(_, let delay, _) = $0 { delay } else { nil } }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(server.requests.count == 4)
    }

    @Test("close() stops reconnecting and closes the open connection")
    func closeStops() async throws {
        let server = try WebSocketTestServer.echo()
        let socket = try H.client().reconnecting(server.url(), policy: policy(), clock: ImmediateClock())
        let opened = AsyncStream<Void>.makeStream()
        socket.addListener { if $0 == .state(.open) { opened.continuation.yield() } }
        socket.start()
        for await _ in opened.stream { break }
        try await socket.send(.text("x"))
        socket.close(.goingAway, reason: "leaving")
        let final = await socket.closed()
        #expect(final.kind == .closedByClient && final.code == .goingAway)
        #expect(server.requests.count == 1)
    }

    @Test("close() during a backoff wait ends it at once, without the clock moving")
    func closeDuringBackoff() async throws {
        let server = try WebSocketTestServer { try $0.refuse(503) }
        let clock = ManualClock()
        let socket = try H.client().reconnecting(server.url(), policy: policy(), clock: clock)
        socket.start()
        await clock.waitForSleepers()   // the first refusal was seen; the backoff is waiting
        socket.close()
        let final = await socket.closed()
        #expect(final.kind == .closedByClient && final.reason == "Closed while waiting to reconnect.")
        #expect(server.requests.count == 1 && clock.now.offset == .zero)
    }

    @Test("the policy's taxonomy: what is retried and what is not")
    func taxonomy() {
        let p = WebSocketReconnectPolicy()
        func close(_ kind: WebSocketClose.Kind, _ code: UInt16 = 1006, status: Int? = nil) -> WebSocketClose {
            WebSocketClose(kind, code: WebSocketCloseCode(code), reason: "", status: status)
        }
        #expect(p.shouldReconnect(after: close(.networkFailure)))
        #expect(p.shouldReconnect(after: close(.pongTimeout)))
        #expect(p.shouldReconnect(after: close(.closedByServer, 1012)))
        #expect(!p.shouldReconnect(after: close(.closedByServer, 1000)))
        #expect(p.shouldReconnect(after: close(.handshakeRefused, status: 503)))
        #expect(p.shouldReconnect(after: close(.handshakeRefused, status: 429)))
        #expect(!p.shouldReconnect(after: close(.handshakeRefused, status: 401)))
        #expect(!p.shouldReconnect(after: close(.protocolError, 1002)))
        #expect(!p.shouldReconnect(after: close(.closedByClient, 1000)))
        #expect(!p.shouldReconnect(after: close(.cancelled)))
        var jittered = p
        jittered.initialDelay = .seconds(10)
        for attempt in 1...8 {
            let d = jittered.delay(beforeAttempt: attempt)
            #expect(d <= .seconds(30) && d >= .seconds(5))
        }
    }
}
