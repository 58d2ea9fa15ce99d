import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

/// Trust against a real TLS server: nginx-light on loopback with a certificate from a CA made
/// for the test. One origin for the suite (creating keys and starting nginx is the slow part).
@Suite("TLS trust and HTTP/2 against nginx on loopback", .serialized)
final class TLSTrustTests {
    let files: TemporaryDirectory
    let origin: TLSOrigin
    static let payload = TemporaryDirectory.pattern(count: 300_000, seed: 4)
    static let otherPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()

    init() throws {
        files = try TemporaryDirectory()
        _ = try files.write("data.bin", Self.payload)
        origin = try TLSOrigin(root: files.url)
    }

    deinit { origin.shutdown() }

    private func transport(trusting: Bool = true, pins: [String: [String]] = [:]) throws -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        if trusting { configuration.certificateAuthorities = origin.certificateAuthorities }
        for (host, list) in pins { try configuration.pins.pin(host, list) }
        return try CurlTransport(configuration: configuration)
    }

    private func fetch(_ transport: CurlTransport, _ base: URL? = nil) async throws(HTTPError) -> (HTTPResponseHead, [UInt8]) {
        defer { transport.shutdown() }
        let response = try await transport.send(HTTPRequest(url: (base ?? origin.baseURL).appendingPathComponent("data.bin")))
        return (response.head, try await response.body.collect(upTo: 1 << 20))
    }

    @Test("the system store does not trust the test CA: a typed TLS failure")
    func untrusted() async throws {
        let error = await #expect(throws: HTTPError.self) { try await self.fetch(try self.transport(trusting: false)) }
        #expect(error?.category == .tls && error?.stage == .transport)
    }

    @Test("with the CA bundle the body arrives exact, over HTTP/2")
    func trustedOverHTTP2() async throws {
        let (head, body) = try await fetch(try transport())
        #expect(head.status == 200 && body == Self.payload)
        #expect(head.httpVersion == "2")
        #expect(head.timings.tlsHandshake > .zero)
    }

    @Test("the right pin is accepted, also among rotation pins; a wrong pin is refused")
    func pinning() async throws {
        let (head, _) = try await fetch(try transport(pins: ["127.0.0.1": [origin.pin]]))
        #expect(head.status == 200)
        let (rotated, _) = try await fetch(try transport(pins: ["127.0.0.1": [Self.otherPin, origin.pin]]))
        #expect(rotated.status == 200)
        let error = await #expect(throws: HTTPError.self) {
            try await self.fetch(try self.transport(pins: ["127.0.0.1": [Self.otherPin]]))
        }
        #expect(error?.category == .tls && error?.code == .tlsFailed)
    }

    @Test("host rules: a pin for another host does not apply; a wildcard rule covers one more label")
    func hostRules() async throws {
        let (head, _) = try await fetch(try transport(pins: ["example.com": [Self.otherPin]]))
        #expect(head.status == 200)
        let error = await #expect(throws: HTTPError.self) {
            try await self.fetch(try self.transport(pins: ["localhost": [Self.otherPin]]), self.origin.localhostURL)
        }
        #expect(error?.category == .tls)
    }

    @Test("HTTPClient with trust configured: 16 concurrent requests multiplexed over HTTP/2")
    func clientOverHTTP2() async throws {
        var configuration = HTTPClientConfiguration()
        configuration.transport.proxy = .none
        configuration.transport.certificateAuthorities = origin.certificateAuthorities
        try configuration.transport.pins.pin("127.0.0.1", [origin.pin])
        let client = try HTTPClient(baseURL: origin.baseURL, configuration: configuration)
        defer { client.shutdown() }
        let versions = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let response = try await client.response(RequestBuilder.get("data.bin", as: [UInt8].self))
                    #expect(response.value == Self.payload)
                    return response.metadata.httpVersion
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(versions == Array(repeating: "2", count: 16))
    }
}
