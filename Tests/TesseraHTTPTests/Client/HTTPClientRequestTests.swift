import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport
import TesseraSupport

private struct Item: Codable, Equatable, Sendable {
    var itemName: String
    var count: Int
}

private struct FetchEcho: Endpoint {
    typealias Response = Echo
    var method: HTTPMethod = .get
    var path = "items/a b"
    var query: [(String, String)] = [("tag", "x&y"), ("tag", "z")]
    var headers: HTTPHeaders = ["Accept": "application/json", "X-Endpoint": "1"]
    var body: RequestContent?
    var authentication: HTTPAuthentication = .anonymous
}

private struct StaticToken: TokenSource {
    func currentToken() async throws(HTTPError) -> String { "t0k3n" }
    func refreshToken() async throws(HTTPError) -> String { "t0k3n" }
}

private struct Stamp: HTTPInterceptor {
    func intercept(_ request: inout HTTPRequest) async throws(HTTPError) {
        request.headers.set("Content-Type", "application/x-intercepted")
        request.headers.set("X-Endpoint", "interceptor")
        request.headers.set("Authorization", "Basic overridden-by-auth")
    }
}

@Suite("HTTPClient requests over libcurl")
struct HTTPClientRequestTests {
    @Test("path after the base path, query encoded with repeats in order, endpoint headers over defaults")
    func endpointShape() async throws {
        let harness = try ClientHarness.echo()
        let echo = try await harness.client().send(FetchEcho())
        #expect(echo.method == "GET")
        #expect(echo.path == "/api/v1/items/a%20b")
        #expect(echo.query == "tag=x%26y&tag=z")
        #expect(echo.header("Accept") == ["application/json"])
        #expect(echo.header("User-Agent") == ["Tessera"])
        #expect(echo.header("X-Endpoint") == ["1"])
    }

    @Test("header precedence: defaults < endpoint < body content type < interceptors < auth")
    func headerPrecedence() async throws {
        let harness = try ClientHarness.echo()
        var endpoint = FetchEcho()
        endpoint.method = .post
        endpoint.headers = ["Content-Type": "text/endpoint", "X-Endpoint": "endpoint", "User-Agent": "Mine/1"]
        endpoint.body = .text("hi")
        endpoint.authentication = .required()
        let plain = try await harness.client().send(FetchEcho(method: .post, headers: endpoint.headers, body: .text("hi")))
        #expect(plain.header("Content-Type") == ["text/plain; charset=utf-8"])   // body type over endpoint
        #expect(plain.header("User-Agent") == ["Mine/1"])                       // endpoint over defaults
        let layered = try await harness.client {
            $0.pipeline.interceptors = [Stamp()]
            $0.pipeline.tokenSource = StaticToken()
        }.send(endpoint)
        #expect(layered.header("Content-Type") == ["application/x-intercepted"])  // interceptor over body
        #expect(layered.header("X-Endpoint") == ["interceptor"])
        #expect(layered.header("Authorization") == ["Bearer t0k3n"])            // auth over interceptor
    }

    @Test("JSON with a per-request encoder, form, text, raw bytes and multipart bodies arrive as sent")
    func bodies() async throws {
        let harness = try ClientHarness.echo()
        let client = try harness.client()
        let snake = JSONEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        snake.outputFormatting = .sortedKeys
        var endpoint = FetchEcho(method: .post)
        endpoint.body = .json(Item(itemName: "a", count: 2), encoder: snake)
        var echo = try await client.send(endpoint)
        #expect(String(decoding: echo.body, as: UTF8.self) == #"{"count":2,"item_name":"a"}"#)
        #expect(echo.header("Content-Type") == ["application/json"])

        endpoint.body = .form([("a", "1 2"), ("a", "&")])
        echo = try await client.send(endpoint)
        #expect(String(decoding: echo.body, as: UTF8.self) == "a=1+2&a=%26")
        #expect(echo.header("Content-Type") == [FormURLEncoded.contentType])

        endpoint.body = .bytes([0, 255, 7], contentType: "application/x-raw")
        echo = try await client.send(endpoint)
        #expect(echo.body == [0, 255, 7] && echo.header("Content-Type") == ["application/x-raw"])

        let multipart = try MultipartBody(boundary: "b0undary", parts: [.init(name: "f", fileName: "x.txt", contentType: "text/plain", bytes: Array("hey".utf8))])
        endpoint.body = .multipart(multipart)
        echo = try await client.send(endpoint)
        #expect(echo.body == (try multipart.encode()))
        #expect(echo.header("Content-Type") == [multipart.contentType])
    }

    @Test("a file body is streamed from disk, and read again from the start by a retry")
    func fileUpload() async throws {
        let counter = Lock(0)
        let harness = try ClientHarness { request in
            let attempt = counter.withLock { $0 += 1; return $0 }
            return attempt == 1 ? ScriptedServer.Reply(503) : .json(Echo(request).json)
        }
        let tree = try TemporaryDirectory()
        let payload = TemporaryDirectory.pattern(count: 3 << 20, seed: 9)
        let file = try tree.write("upload.bin", payload)
        var endpoint = FetchEcho(method: .put, headers: ["Idempotency-Key": "k1"])
        endpoint.body = .file(file)
        let echo = try await harness.client().send(endpoint)
        #expect(echo.method == "PUT" && echo.body == payload)
        #expect(harness.server.log.map(\.body.count) == [payload.count, payload.count])
        #expect(harness.clock.sleeps.count == 1)
    }

    @Test("a missing upload file is a file-stage error before any request")
    func missingUpload() async throws {
        let harness = try ClientHarness.echo()
        var endpoint = FetchEcho(method: .post)
        endpoint.body = .file(URL(fileURLWithPath: "/nonexistent/upload.bin"))
        let error = await #expect(throws: HTTPError.self) { try await harness.client().send(endpoint) }
        #expect(error?.stage == .file && error?.code == .uploadUnreadable)
        #expect(harness.server.log.isEmpty)
    }

    @Test("a required endpoint with no token source fails at configuration, before any transport")
    func requiredAuthWithoutSource() async throws {
        let harness = try ClientHarness.echo()
        let error = await #expect(throws: HTTPError.self) {
            try await harness.client().send(FetchEcho(authentication: .required()))
        }
        #expect(error?.stage == .configuration && error?.code == .missingTokenSource)
        #expect(harness.server.log.isEmpty)
        // Optional authentication goes without a token.
        let echo = try await harness.client().send(FetchEcho(authentication: .optional()))
        #expect(echo.header("Authorization").isEmpty)
    }

    @Test("base URL and path rules: http refused unless allowed, user-info, query and fragment refused, '?' in a path refused")
    func urlRules() async throws {
        let harness = try ClientHarness.echo()
        for base in ["http://127.0.0.1:1/api", "https://user:pw@example.com/", "https://example.com/?a=1", "https://example.com/#f", "ftp://example.com/"] {
            let error = #expect(throws: HTTPError.self) { try HTTPClient(baseURL: URL(string: base)!, transport: harness.transport, clock: harness.clock) }
            #expect(error?.stage == .configuration, "\(base)")
        }
        let error = await #expect(throws: HTTPError.self) { try await harness.client().send(FetchEcho(path: "items?x=1")) }
        #expect(error?.stage == .requestConstruction && error?.code == .badPath)
        #expect(harness.server.log.isEmpty)
    }

    @Test("the one-off builder composes method, query, headers, body, tag and decoding")
    func builder() async throws {
        let harness = try ClientHarness.echo()
        let request = RequestBuilder.post("things", as: Echo.self)
            .query("q", "1").header("X-One", "1").body(.text("b")).tagged("t")
        let echo = try await harness.client().send(request)
        #expect(echo.method == "POST" && echo.path == "/api/v1/things" && echo.query == "q=1")
        #expect(echo.header("X-One") == ["1"] && echo.body == Array("b".utf8))
        let text = try await harness.client().send(RequestBuilder.get("text", as: String.self))
        #expect(text.contains("\"method\":\"GET\""))
        let bytes = try await harness.client().send(RequestBuilder.get("raw", as: [UInt8].self))
        #expect(bytes.first == UInt8(ascii: "{"))
    }

    @Test("curlCommand shows the built request with values redacted")
    func curlExport() throws {
        let harness = try ClientHarness.echo()
        let text = try harness.client().curlCommand(FetchEcho())
        #expect(text.contains("tag=<redacted>&tag=<redacted>"))
        #expect(text.contains("'X-Endpoint: <redacted>'"))
    }
}
