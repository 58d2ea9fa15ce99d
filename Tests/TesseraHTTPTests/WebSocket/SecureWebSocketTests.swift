import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("wss:// through a real TLS server (nginx proxying the upgrade)")
final class SecureWebSocketTests {
    let echo: WebSocketTestServer
    let origin: TLSOrigin
    let files: TemporaryDirectory

    init() throws {
        echo = try WebSocketTestServer.echo()
        files = try TemporaryDirectory()
        origin = try TLSOrigin(root: files.url, webSocketUpstream: echo.port)
    }

    deinit { origin.shutdown() }

    private func client(trusting: Bool = true, pins: [String] = []) throws -> WebSocketClient {
        var transport = CurlTransport.Configuration()
        transport.proxy = .none
        if trusting { transport.certificateAuthorities = origin.certificateAuthorities }
        if !pins.isEmpty { try transport.pins.pin("127.0.0.1", pins) }
        var configuration = WebSocketConfiguration()
        configuration.heartbeat = nil
        return WebSocketClient(configuration: configuration, transport: transport)
    }

    private var url: URL { URL(string: "wss://127.0.0.1:\(origin.port)/ws/feed")! }

    @Test("with the client's trust and the right pin: an echo over TLS, then a clean close")
    func trusted() async throws {
        let task = try client(pins: [origin.pin]).task(url)
        var events = task.events.makeAsyncIterator()
        task.start()
        _ = await WebSocketHarness.read(&events, until: WebSocketHarness.isOpen)
        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        try await task.send(.text("over tls"))
        try await task.send(.binary(big))
        var got: [WebSocketMessage] = []
        while got.count < 2, let event = await events.next() { if case .message(let m) = event { got.append(m) } }
        #expect(got == [.text("over tls"), .binary(big)])
        task.close()
        let rest = await WebSocketHarness.read(&events) { if case .closed = $0 { true } else { false } }
        #expect(WebSocketHarness.close(of: rest)?.kind == .closedByClient)
        #expect(echo.requests.first?.path == "/ws/feed")
    }

    @Test("an untrusted certificate or a wrong pin: network-failure (tls), no upgrade sent")
    func refusedTrust() async throws {
        let wrongPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        for client in [try client(trusting: false), try client(pins: [wrongPin])] {
            let task = try client.task(url)
            task.start()
            let close = try #require(WebSocketHarness.close(of: await WebSocketHarness.collect(task)))
            #expect(close.kind == .networkFailure && close.error?.category == .tls)
        }
        #expect(echo.requests.isEmpty)
    }
}
