import Foundation
import Synchronization
import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("WebSocket client against a scripted loopback server")
struct WebSocketClientTests {
    typealias H = WebSocketHarness

    @Test("text, binary, a 1 MiB message sent in fragments, ping/pong, then a clean client close")
    func echo() async throws {
        let server = try WebSocketTestServer.echo()
        let client = H.client { $0.outgoingFragmentBytes = 64 << 10 }
        let task = try client.task(server.url("echo"), protocols: [])
        var events = task.events.makeAsyncIterator()
        task.start()
        let opening = await H.read(&events, until: H.isOpen)
        #expect(opening.first == .state(.connecting))
        #expect(opening.contains { if case .opened = $0 { true } else { false } })
        let big = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try await task.send(.text("héllo ☃"))
        try await task.send(.binary(Data([0, 1, 2, 255])))
        try await task.send(.binary(big))
        try await task.ping(Data("p1".utf8))
        let replies = await H.read(&events) { if case .pong = $0 { true } else { false } }
        #expect(H.messages(replies) == [.text("héllo ☃"), .binary(Data([0, 1, 2, 255])), .binary(big)])
        #expect(replies.last == .pong(Data("p1".utf8)))
        task.close(.normalClosure, reason: "done")
        var rest: [WebSocketEvent] = []
        while let event = await events.next() { rest.append(event) }
        #expect(rest.first == .state(.closing))
        let close = try #require(H.close(of: rest))
        #expect(close.kind == .closedByClient && close.code == .normalClosure && close.reason == "done" && close.wasClean)
        #expect(server.requests.first?.path == "/echo")
        await #expect(throws: HTTPError.self) { try await task.send(.text("late")) }
    }

    @Test("a handshake answered 401, 404 or 500 ends handshake-refused with its status", arguments: [401, 404, 500])
    func refused(status: Int) async throws {
        let server = try WebSocketTestServer { try $0.refuse(status) }
        let task = try H.client().task(server.url())
        task.start()
        let close = try #require(H.close(of: await H.collect(task)))
        #expect(close.kind == .handshakeRefused && close.status == status)
        #expect(!close.wasClean)
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }

    @Test("a wrong Sec-WebSocket-Accept ends handshake-invalid, no message delivered")
    func wrongAccept() async throws {
        let server = try WebSocketTestServer { peer in
            try peer.accept(acceptKey: "dGhlIHNhbXBsZSBub25jZQ==")
            try peer.send(text: "should not be read")
        }
        let task = try H.client().task(server.url())
        task.start()
        let events = await H.collect(task)
        #expect(H.close(of: events)?.kind == .handshakeInvalid)
        #expect(H.messages(events).isEmpty && !events.contains(.state(.open)))
    }

    /// Runs a server that accepts, does `misbehave`, and reports the close code it then reads.
    private func violation(_ configure: (inout WebSocketConfiguration) -> Void = { _ in },
                           _ misbehave: @escaping @Sendable (WebSocketPeer) throws -> Void) async throws -> (WebSocketClose, [WebSocketEvent], UInt16?) {
        let seen = Mutex<UInt16?>(nil)
        let server = try WebSocketTestServer { peer in
            try peer.accept()
            try misbehave(peer)
            let code = try peer.awaitClose()
            seen.withLock { $0 = code }
        }
        let task = try H.client(configure).task(server.url())
        task.start()
        let events = await H.collect(task)
        await server.handlersFinished()
        let close = try #require(H.close(of: events))
        return (close, events, seen.withLock { $0 })
    }

    @Test("a server that sends a masked frame: protocol error, our close says 1002")
    func maskedFromServer() async throws {
        let (close, events, code) = try await violation { try $0.send(opcode: 0x1, Array("hi".utf8), masked: true) }
        #expect(close.kind == .protocolError && close.code == .protocolError && close.reason.contains("masked"))
        #expect(H.messages(events).isEmpty)
        #expect(code == 1002)
    }

    @Test("an oversized frame: 1009, refused from its header")
    func oversized() async throws {
        let (close, _, code) = try await violation({ $0.maximumFrameBytes = 1000 }) { try $0.send(opcode: 0x2, [UInt8](repeating: 7, count: 1001)) }
        #expect(close.kind == .protocolError && close.code == .messageTooBig)
        #expect(code == 1009)
    }

    @Test("invalid UTF-8 in a text frame: 1007")
    func invalidUTF8() async throws {
        let (close, events, code) = try await violation { peer in
            try peer.send(text: "fine")
            try peer.send(opcode: 0x1, [0x68, 0xC3, 0x28])
        }
        #expect(H.messages(events) == [.text("fine")])
        #expect(close.kind == .protocolError && close.code == .invalidPayload)
        #expect(code == 1007)
    }

    @Test("a close in the middle of a fragmented message: answered, the partial message never delivered")
    func closeMidFragment() async throws {
        let answered = Mutex<UInt16?>(nil)
        let server = try WebSocketTestServer { peer in
            try peer.accept()
            try peer.send(opcode: 0x1, Array("part one, ".utf8), isFinal: false)
            try peer.sendClose(1001, reason: "shutting down")
            answered.withLock { $0 = try? peer.awaitClose() }   // nil (the assertion fails) if the close never came
        }
        let task = try H.client().task(server.url())
        task.start()
        let events = await H.collect(task)
        let close = try #require(H.close(of: events))
        #expect(close.kind == .closedByServer && close.code == .goingAway && close.reason == "shutting down")
        #expect(H.messages(events).isEmpty)
        #expect(events.contains(.state(.closing)))
        await server.handlersFinished()
        #expect(answered.withLock { $0 } == 1001)
    }

    @Test("a dead peer: no pong within the heartbeat's timeout ends pong-timeout")
    func deadPeer() async throws {
        let pinged = Mutex(0)
        let server = try WebSocketTestServer { peer in
            try peer.accept()
            while let frame = try peer.receive() {   // reads pings, never answers
                if frame.opcode == 0x9 { pinged.withLock { $0 += 1 } }
            }
        }
        let client = H.client { $0.heartbeat = .init(interval: .milliseconds(20), pongTimeout: .milliseconds(100)) }
        let task = try client.task(server.url())
        task.start()
        let close = try #require(H.close(of: await H.collect(task)))
        #expect(close.kind == .pongTimeout)
        await server.handlersFinished()
        #expect(pinged.withLock { $0 } >= 1)
    }

    @Test("a live peer answers the heartbeat's pings and the connection stays open")
    func heartbeatAnswered() async throws {
        let server = try WebSocketTestServer.echo()
        let client = H.client { $0.heartbeat = .init(interval: .milliseconds(10), pongTimeout: .seconds(30)) }
        let task = try client.task(server.url())
        var events = task.events.makeAsyncIterator()
        task.start()
        var pongs = 0
        while pongs < 3, let event = await events.next() { if case .pong = event { pongs += 1 } }
        #expect(pongs == 3 && task.state == .open)
        task.close()
        let rest = await H.read(&events) { if case .closed = $0 { true } else { false } }
        #expect(H.close(of: rest)?.kind == .closedByClient)
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }

    @Test("the server's connection drops without a close frame: network-failure, 1006")
    func networkDrop() async throws {
        let server = try WebSocketTestServer { peer in
            try peer.accept()
            try peer.send(text: "one")
            peer.closeTCP()
        }
        let task = try H.client().task(server.url())
        task.start()
        let events = await H.collect(task)
        let close = try #require(H.close(of: events))
        #expect(H.messages(events) == [.text("one")])
        #expect(close.kind == .networkFailure && close.code == .abnormalClosure && close.error?.code == .connectionLost)
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }

    @Test("nothing listening: network-failure with the connect error")
    func refusedPort() async throws {
        let port = try SaturatedListener.unusedPort()
        let task = try H.client().task(URL(string: "ws://127.0.0.1:\(port)/")!)
        task.start()
        let close = try #require(H.close(of: await H.collect(task)))
        #expect(close.kind == .networkFailure && close.error?.category == .connect)
    }

    @Test("a server close is answered with the same code and reported closed-by-server")
    func serverClose() async throws {
        let answered = Mutex<UInt16?>(nil)
        let server = try WebSocketTestServer { peer in
            try peer.accept()
            try peer.sendClose(4000, reason: "bye")
            answered.withLock { $0 = try? peer.awaitClose() }   // nil (the assertion fails) if the close never came
        }
        let task = try H.client().task(server.url())
        task.start()
        let close = try #require(H.close(of: await H.collect(task)))
        #expect(close.kind == .closedByServer && close.code == WebSocketCloseCode(4000) && close.reason == "bye")
        await server.handlersFinished()
        #expect(answered.withLock { $0 } == 4000)
    }

    @Test("fragmented messages from the server join, with pings between the fragments answered")
    func serverFragments() async throws {
        let pong = Mutex<[UInt8]?>(nil)
        let server = try WebSocketTestServer { peer in
            try peer.accept()
            try peer.send(opcode: 0x2, [1, 2], isFinal: false)
            try peer.send(opcode: 0x9, Array("mid".utf8))
            try peer.send(opcode: 0x0, [3], isFinal: false)
            try peer.send(opcode: 0x0, [4], isFinal: true)
            while let frame = try peer.receive() {
                if frame.opcode == 0xA { pong.withLock { $0 = frame.payload } }
                if frame.opcode == 0x8 {
                    try peer.send(opcode: 0x8, frame.payload)
                    return
                }
            }
        }
        let task = try H.client().task(server.url())
        var events = task.events.makeAsyncIterator()
        task.start()
        let got = await H.read(&events) { if case .message = $0 { true } else { false } }
        #expect(H.messages(got) == [.binary(Data([1, 2, 3, 4]))])
        task.close()
        _ = await H.read(&events) { if case .closed = $0 { true } else { false } }
        await server.handlersFinished()
        #expect(pong.withLock { $0 } == Array("mid".utf8))
    }

    @Test("a slow reader loses nothing: 2,000 messages through a buffer of 4, in order")
    func backPressure() async throws {
        let server = try WebSocketTestServer { peer in
            try peer.accept()
            for i in 0..<2000 { try peer.send(text: "m\(i)") }
            try peer.sendClose(1000)
            _ = try? peer.awaitClose()   // the client's close answer; the test checks the messages
        }
        let task = try H.client { $0.eventBufferCapacity = 4 }.task(server.url())
        task.start()
        var texts: [String] = []
        for await event in task.events {
            if case .message(.text(let text)) = event {
                texts.append(text)
                if texts.count % 100 == 0 { await Task.yield() }
            }
        }
        #expect(texts == (0..<2000).map { "m\($0)" })
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }

    @Test("the subprotocol the server chose is reported; extra header fields reach the server")
    func subprotocolAndHeaders() async throws {
        let server = try WebSocketTestServer { peer in
            try peer.accept(extraFields: ["Sec-WebSocket-Protocol: v2"])
            try peer.echoUntilClose()
        }
        let task = try H.client().task(server.url(), headers: ["Authorization": "Bearer t0ken"], protocols: ["v1", "v2"])
        var events = task.events.makeAsyncIterator()
        task.start()
        let opening = await H.read(&events, until: H.isOpen)
        #expect(opening.contains { if case .opened(subprotocol: "v2", headers: _) = $0 { true } else { false } })
        task.close()
        _ = await H.read(&events) { if case .closed = $0 { true } else { false } }
        let request = try #require(server.requests.first)
        #expect(request.headers["Authorization"] == "Bearer t0ken" && request.headers["Sec-WebSocket-Protocol"] == "v1, v2")
        #expect(request.headers["Sec-WebSocket-Version"] == "13" && request.headers["User-Agent"] == "Tessera")
    }

    @Test("plain ws is refused unless allowed; other schemes and owned fields are refused")
    func refusedRequests() throws {
        var strict = WebSocketConfiguration()
        strict.allowsPlainText = false
        let client = WebSocketClient(configuration: strict)
        #expect { try client.task(URL(string: "ws://127.0.0.1:1/")!) } throws: { ($0 as? HTTPError)?.code == .insecureURL }
        #expect { try client.task(URL(string: "https://127.0.0.1:1/")!) } throws: { ($0 as? HTTPError)?.code == .unsupportedScheme }
        #expect { try client.task(URL(string: "wss://x/")!, headers: ["Upgrade": "h2c"]) } throws: { ($0 as? HTTPError)?.code == .badHeader }
        #expect(throws: Never.self) { _ = try client.task(URL(string: "wss://127.0.0.1:1/")!) }
    }

    @Test("sends made before the upgrade completes go out after it, in order")
    func sendsBeforeOpen() async throws {
        let server = try WebSocketTestServer.echo()
        let task = try H.client().task(server.url())
        task.start()
        async let first: Void = task.send(.text("a"))
        async let second: Void = task.send(.text("b"))
        _ = try await (first, second)
        var events = task.events.makeAsyncIterator()
        var texts: [String] = []
        while texts.count < 2, let event = await events.next() { if case .message(.text(let t)) = event { texts.append(t) } }
        #expect(Set(texts) == ["a", "b"])
        task.cancel()
        let rest = await H.read(&events) { if case .closed = $0 { true } else { false } }
        #expect(H.close(of: rest)?.kind == .cancelled)
        // The server lives to the end: released after its last use, it would drop the connection.
        withExtendedLifetime(server) {}
    }

    @Test("retry() gives a fresh, unstarted task whose events are in place before it starts")
    func retry() async throws {
        let server = try WebSocketTestServer.echo()
        let first = try H.client().task(server.url("r"))
        first.start()
        first.cancel()
        #expect(H.close(of: await H.collect(first))?.kind == .cancelled)
        let second = try first.retry()
        #expect(second.state == .idle && second !== first)
        var events = second.events.makeAsyncIterator()
        second.start()
        let opening = await H.read(&events, until: H.isOpen)
        #expect(opening.first == .state(.connecting) && opening.last == .state(.open))
        try await second.send(.text("again"))
        let echoed = await H.read(&events) { if case .message = $0 { true } else { false } }
        #expect(H.messages(echoed) == [.text("again")])
        second.close()
        _ = await H.read(&events) { if case .closed = $0 { true } else { false } }
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }
}
