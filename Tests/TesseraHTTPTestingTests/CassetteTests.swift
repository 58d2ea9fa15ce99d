import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

@Suite("Cassettes: record real exchanges redacted, replay them through MockTransport")
struct CassetteTests {
    private struct Raw: Endpoint {
        typealias Response = [UInt8]
        var method: HTTPMethod = .get
        var path: String
        var query: [(String, String)] = []
        var headers: HTTPHeaders = [:]
        var body: RequestContent?
    }

    /// The origin the cassette was recorded against (its first URL without path or query).
    static func base(of cassette: Cassette) -> URL {
        var parts = URLComponents(string: cassette.interactions[0].request.url)!
        parts.path = "/"
        parts.query = nil
        return parts.url!
    }

    static let segment = [UInt8]((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 13) })

    private func origin() throws -> ScriptedServer {
        try ScriptedServer { request in
            switch request.path {
            case "/token":
                var reply = ScriptedServer.Reply.json(#"{"access_token":"abc.def.ghi","name":"Ada"}"#)
                reply.headers.add("Set-Cookie", "sid=c00kie; HttpOnly")
                return reply
            case "/echo": return .json(String(decoding: request.body, as: UTF8.self))
            case "/seg.ts": return ScriptedServer.Reply(200, headers: ["Content-Type": "video/mp2t"], body: Self.segment)
            case "/moved": return ScriptedServer.Reply(404, headers: ["Location": "https://bucket.example/o?X-Amz-Signature=s1gnature&v=2"])
            default: return ScriptedServer.Reply(404)
            }
        }
    }

    private func client(_ transport: any HTTPTransport, _ base: URL) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        return try HTTPClient(baseURL: base, configuration: configuration, transport: transport, clock: ImmediateClock())
    }

    /// Records the three calls against a real origin; returns the cassette file.
    private func record(into folder: TemporaryDirectory) async throws -> URL {
        let server = try origin()
        let transport = try CurlTransport.loopback()
        let recorder = CassetteRecorder(recording: transport)
        let client = try client(recorder, server.baseURL)
        _ = try await client.send(Raw(path: "token", query: [("user", "1"), ("token", "s3cret")], headers: ["Authorization": "Bearer t0ken"]))
        _ = try await client.send(Raw(method: .post, path: "echo", body: .text(#"{"password":"hunter2","q":1}"#, contentType: "application/json")))
        #expect(try await client.send(Raw(path: "seg.ts")) == Self.segment)
        await #expect(throws: HTTPError.self) { _ = try await client.send(Raw(path: "moved")) }
        let file = folder.url.appendingPathComponent("cassette.json")
        try recorder.cassette.write(to: file)
        transport.shutdown()
        return file
    }

    @Test("no secret reaches the file: query tokens, Authorization, Set-Cookie, JSON credentials")
    func redacted() async throws {
        let folder = try TemporaryDirectory()
        let text = try String(contentsOf: try await record(into: folder), encoding: .utf8)
        for secret in ["s3cret", "t0ken", "abc.def.ghi", "c00kie", "hunter2", "s1gnature"] { #expect(!text.contains(secret), "\(secret) in the cassette") }
        let cassette = try Cassette.load(from: folder.url.appendingPathComponent("cassette.json"))
        #expect(cassette.interactions.count == 4)
        #expect(cassette.interactions[3].response.headers.contains(["Location", "https://bucket.example/o?X-Amz-Signature=%3Credacted%3E&v=2"]))
        #expect(cassette.interactions[0].request.url.hasSuffix("/token?user=1&token=%3Credacted%3E"))
        #expect(cassette.interactions[0].request.headers.contains(["Authorization", "<redacted>"]))
        #expect(cassette.interactions[2].response.body == Data(Self.segment))
    }

    @Test("replayed in order through MockTransport: the same statuses and bodies (credentials masked)")
    func replayInOrder() async throws {
        let folder = try TemporaryDirectory()
        let cassette = try Cassette.load(from: try await record(into: folder))
        let base = Self.base(of: cassette)
        let transport = MockTransport(replaying: cassette)
        let client = try client(transport, base)
        let token = try await client.send(Raw(path: "token", query: [("user", "1"), ("token", "another-secret")]))
        let json = try JSONSerialization.jsonObject(with: Data(token)) as? [String: String]
        #expect(json?["name"] == "Ada" && json?["access_token"] == "<redacted>")
        let echoed = try await client.send(Raw(method: .post, path: "echo", body: .text(#"{"password":"x","q":1}"#, contentType: "application/json")))
        #expect(String(decoding: echoed, as: UTF8.self).contains(#""q":1"#))
        #expect(try await client.send(Raw(path: "seg.ts")) == Self.segment)
        await #expect { _ = try await client.send(Raw(path: "moved")) } throws: { ($0 as? HTTPError)?.status == 404 }
        #expect(transport.unusedInteractions == 0)
    }

    @Test("an unrecorded request fails loudly; out of order fails in order and passes by match")
    func unrecorded() async throws {
        let folder = try TemporaryDirectory()
        let cassette = try Cassette.load(from: try await record(into: folder))
        let base = Self.base(of: cassette)
        let strict = try client(MockTransport(replaying: cassette), base)
        await #expect { _ = try await strict.send(Raw(path: "seg.ts")) } throws: { error in
            let error = error as? HTTPError
            return error?.code == .unrecordedRequest && error?.message.contains("the next recorded one is GET") == true
        }
        let loose = MockTransport(replaying: cassette, order: .byMatch)
        let client = try client(loose, base)
        #expect(try await client.send(Raw(path: "seg.ts")) == Self.segment)
        await #expect { _ = try await client.send(Raw(path: "seg.ts")) } throws: { ($0 as? HTTPError)?.code == .unrecordedRequest }
        await #expect { _ = try await client.send(Raw(path: "never")) } throws: { ($0 as? HTTPError)?.code == .unrecordedRequest }
        #expect(loose.unusedInteractions == 3)
    }

    @Test("the WebSocket event recorder keeps a reconnecting socket's events and waits for one")
    func webSocketRecorder() async throws {
        let server = try WebSocketTestServer.echo()
        var configuration = WebSocketConfiguration()
        configuration.allowsPlainText = true
        configuration.heartbeat = nil
        var transport = CurlTransport.Configuration()
        transport.proxy = .none
        let socket = try WebSocketClient(configuration: configuration, transport: transport).reconnecting(server.url(), policy: WebSocketReconnectPolicy())
        let recorder = WebSocketEventRecorder()
        socket.addListener(recorder.record)
        socket.start()
        await recorder.wait { $0 == .state(.open) }
        try await socket.send(.text("hello"))
        await recorder.wait { if case .message = $0 { true } else { false } }
        #expect(recorder.messages == [.text("hello")])
        socket.close()
        await recorder.wait { if case .closed = $0 { true } else { false } }
        #expect(recorder.close?.kind == .closedByClient)
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }
}
