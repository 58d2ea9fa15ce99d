import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

private struct User: Decodable, Sendable { let id: Int; let name: String }

private struct GetUser: Endpoint {
    typealias Response = User
    let id: Int
    var path: String { "users/\(id)" }
    var authentication: HTTPAuthentication { .required() }
}

private struct MyTokens: TokenSource {
    func currentToken() async throws(HTTPError) -> String { "token-1" }
    func refreshToken() async throws(HTTPError) -> String { "token-2" }
}

@Suite("docs/HTTP-CLIENT.md quick start")
struct ClientQuickStartTests {
    @Test("the quick start runs against nginx over TLS with the pins it names")
    func quickStart() async throws {
        let files = try TemporaryDirectory()
        _ = try files.write("v1/users/42", Array(#"{"id":42,"name":"Ada"}"#.utf8))
        _ = try files.write("v1/users/index.html", Array(#"[{"id":1,"name":"Bo"}]"#.utf8))   // nginx: /v1/users → 301 → /v1/users/
        _ = try files.write("v1/export.csv", Array("a,b\n".utf8))
        let origin = try TLSOrigin(root: files.url)
        defer { origin.shutdown() }
        let out = try TemporaryDirectory()
        let primaryPin = origin.pin
        let backupPin = "sha256//" + Data(repeating: 1, count: 32).base64EncodedString()

        // From docs/HTTP-CLIENT.md; the test adds its private CA, no proxy, its own host and folder.
        var configuration = HTTPClientConfiguration()
        configuration.transport.certificateAuthorities = origin.certificateAuthorities
        configuration.transport.proxy = .none
        configuration.pipeline.tokenSource = MyTokens()
        configuration.pipeline.cache = MemoryResponseCache()
        try configuration.transport.pins.pin("127.0.0.1", [primaryPin, backupPin])
        let client = try HTTPClient(baseURL: origin.baseURL.appendingPathComponent("v1"), configuration: configuration)
        defer { client.shutdown() }

        let user = try await client.send(GetUser(id: 42))
        let page = try await client.response(RequestBuilder.get("users", as: [User].self).query("page", "2"))
        try await client.download(RequestBuilder<HTTPNoContent>(.get, "export.csv"),
                                  to: out.url.appendingPathComponent("out/export.csv"))

        #expect(user.name == "Ada" && page.value.first?.name == "Bo")
        #expect(page.metadata.status == 200 && page.metadata.httpVersion == "2")
        #expect(try String(contentsOf: out.url.appendingPathComponent("out/export.csv"), encoding: .utf8) == "a,b\n")
    }
}
