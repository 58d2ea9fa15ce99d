import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

private struct Profile: Decodable, Equatable, Sendable {
    var name: String
    var age: Int
}

private struct Get<Response: Sendable>: Endpoint {
    var path: String
    var decoding: ResponseDecoding<Response>
    var acceptableStatus: AcceptableStatus = .successful
}

/// Unwraps `{"data": …}` and turns `{"error": …}` into an `HTTPError`.
private struct Envelope: HTTPResponseAdapter {
    func adapt(_ response: inout HTTPCollectedResponse) async throws(HTTPError) {
        // Not a JSON object: nothing to unwrap, the response goes on unchanged.
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else { return }
        if let message = object["error"] as? String {
            throw HTTPError(.status, code: HTTPError.Code("api-error"), "The API said: \(message)")
        }
        if let data = object["data"], let bytes = try? JSONSerialization.data(withJSONObject: data) {
            response.body = Array(bytes)
        }
    }
}

@Suite("HTTPClient responses over libcurl")
struct HTTPClientResponseTests {
    static func routes(_ request: ScriptedServer.Request) -> ScriptedServer.Reply {
        switch request.path {
        case "/api/v1/profile": .json(#"{"name":"Ada","age":36}"#)
        case "/api/v1/bad-profile": .json(#"{"name":"Ada","age":"old"}"#)
        case "/api/v1/empty": ScriptedServer.Reply(204)
        case "/api/v1/latin1": ScriptedServer.Reply(200, headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: [0x63, 0x61, 0x66, 0xE9])
        case "/api/v1/not-utf8": ScriptedServer.Reply(200, headers: ["Content-Type": "text/plain"], body: [0xC3, 0x28])
        case "/api/v1/missing": .json(#"{"error":"nope","access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl","detail":"see docs"}"#, status: 404)
        case "/api/v1/moved": ScriptedServer.Reply(302, headers: ["Location": "/api/v1/profile"])
        case "/api/v1/big": ScriptedServer.Reply(200, body: [UInt8](repeating: 7, count: (5 << 20) + 1))
        case "/api/v1/wrapped": .json(#"{"data":{"name":"Bo","age":3}}"#)
        case "/api/v1/wrapped-error": .json(#"{"error":"quota"}"#)
        case "/api/v1/events": ScriptedServer.Reply(200, headers: ["Content-Type": "text/event-stream"],
                                                    body: Array("id: 1\ndata: one\n\ndata: two\ndata: lines\n\n".utf8))
        default: ScriptedServer.Reply(404)
        }
    }

    @Test("JSON, String (charset aware), bytes, nothing, and nil for an optional on an empty body")
    func decodings() async throws {
        let harness = try ClientHarness(Self.routes)
        let client = try harness.client()
        #expect(try await client.send(Get(path: "profile", decoding: .json())) == Profile(name: "Ada", age: 36))
        #expect(try await client.send(Get(path: "latin1", decoding: .string)) == "café")
        #expect(try await client.send(Get(path: "profile", decoding: .bytes)) == Array(#"{"name":"Ada","age":36}"#.utf8))
        #expect(try await client.send(Get(path: "profile", decoding: .nothing)) == HTTPNoContent())
        let none: Profile? = try await client.send(Get(path: "empty", decoding: .json()))
        #expect(none == nil)
        let some: Profile? = try await client.send(Get(path: "profile", decoding: .json()))
        #expect(some == Profile(name: "Ada", age: 36))
    }

    @Test("a body that does not decode is a decoding-stage error naming the path, never the value")
    func decodingFailure() async throws {
        let harness = try ClientHarness(Self.routes)
        let client = try harness.client()
        let error = await #expect(throws: HTTPError.self) { try await client.send(Get<Profile>(path: "bad-profile", decoding: .json())) }
        #expect(error?.stage == .decoding && error?.status == 200)
        #expect(error?.message.contains("age") == true && error?.message.contains("old") == false)
        let text = await #expect(throws: HTTPError.self) { try await client.send(Get(path: "not-utf8", decoding: .string)) }
        #expect(text?.stage == .decoding)
        let empty = await #expect(throws: HTTPError.self) { try await client.send(Get<Profile>(path: "empty", decoding: .json())) }
        #expect(empty?.stage == .decoding)
    }

    @Test("an unacceptable status is a status error; the payload is captured, redacted, only when opted in")
    func statusErrors() async throws {
        let harness = try ClientHarness(Self.routes)
        let plain = await #expect(throws: HTTPError.self) { try await harness.client().send(Get(path: "missing", decoding: .bytes)) }
        #expect(plain?.stage == .status && plain?.status == 404 && plain?.capturedPayload == nil)
        #expect(plain?.url?.hasSuffix("/api/v1/missing") == true)
        let captured = await #expect(throws: HTTPError.self) {
            try await harness.client { $0.capturesFailurePayloads = true }.send(Get(path: "missing", decoding: .bytes))
        }
        let payload = try #require(captured?.capturedPayload)
        #expect(payload.contains("\"error\":\"nope\"") && payload.contains("see docs"))
        #expect(!payload.contains("eyJ") && payload.contains("<redacted>"))
        let streamed = await #expect(throws: HTTPError.self) {
            try await harness.client { $0.capturesFailurePayloads = true }.stream(Get(path: "missing", decoding: .bytes))
        }
        #expect(streamed?.stage == .status && streamed?.capturedPayload?.contains("nope") == true)
        // A custom acceptable set turns the 404 into a value.
        let accepted = try await harness.client().response(Get(path: "missing", decoding: .bytes, acceptableStatus: .only([200, 404])))
        #expect(accepted.metadata.status == 404)
    }

    @Test("metadata: final URL after a redirect, status, headers, HTTP version, curl timings")
    func metadata() async throws {
        let harness = try ClientHarness(Self.routes)
        let response = try await harness.client().response(Get<Profile>(path: "moved", decoding: .json()))
        #expect(response.value.name == "Ada")
        let metadata = response.metadata
        #expect(metadata.status == 200 && metadata.url.path == "/api/v1/profile")
        #expect(metadata.headers["Content-Type"] == "application/json")
        #expect(metadata.httpVersion == "1.1" && metadata.bodyBytes == 23)
        #expect(metadata.timings.firstByte > .zero && metadata.timings.firstByte >= metadata.timings.requestStart)
        #expect(metadata.total >= metadata.timings.firstByte)
    }

    @Test("collection is bounded at 5 MiB by default; opting out collects the whole body")
    func collectionLimit() async throws {
        let harness = try ClientHarness(Self.routes)
        let error = await #expect(throws: HTTPError.self) { try await harness.client().send(Get(path: "big", decoding: .bytes)) }
        #expect(error?.code == .bodyTooLarge)
        let bytes = try await harness.client { $0.collectionLimit = nil }.send(Get(path: "big", decoding: .bytes))
        #expect(bytes.count == (5 << 20) + 1)
    }

    @Test("response adapters run before status validation and decoding, in order")
    func adapters() async throws {
        let harness = try ClientHarness(Self.routes)
        let client = try harness.client { $0.responseAdapters = [Envelope()] }
        #expect(try await client.send(Get(path: "wrapped", decoding: .json())) == Profile(name: "Bo", age: 3))
        let error = await #expect(throws: HTTPError.self) { try await client.send(Get(path: "wrapped-error", decoding: .bytes)) }
        #expect(error?.code == HTTPError.Code("api-error"))
    }

    @Test("a streamed body feeds the Server-Sent Events decoder")
    func serverSentEvents() async throws {
        let harness = try ClientHarness(Self.routes)
        let response = try await harness.client().stream(Get(path: "events", decoding: .bytes))
        var data: [String] = []
        for try await event in ServerSentEventSequence(body: response.body, decoder: ServerSentEventDecoder()) {
            data.append(event.data)
        }
        #expect(data == ["one", "two\nlines"])
    }
}
