import Foundation
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

/// A scripted API server plus a real libcurl transport, and clients over them on a test clock.
final class ClientHarness: Sendable {
    let server: ScriptedServer
    let transport: CurlTransport
    let clock = ImmediateClock()

    init(_ handler: @escaping @Sendable (ScriptedServer.Request) -> ScriptedServer.Reply) throws {
        server = try ScriptedServer(handler)
        transport = try CurlTransport.loopback()
    }

    deinit {
        transport.shutdown()
        server.shutdown()
    }

    /// A client whose base URL is `<server>/api/v1`.
    func client(_ adjust: (inout HTTPClientConfiguration) -> Void = { _ in }) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        configuration.pipeline.retry.jitter = 0
        adjust(&configuration)
        return try HTTPClient(baseURL: server.baseURL.appendingPathComponent("api/v1"), configuration: configuration,
                              transport: transport, clock: clock)
    }

    /// A server that answers every request with a JSON echo of what it received.
    static func echo() throws -> ClientHarness {
        try ClientHarness { request in
            .json(Echo(request).json)
        }
    }
}

/// What the echo server saw, as the client decodes it.
struct Echo: Codable, Equatable {
    var method: String
    var path: String
    var query: String?
    var headers: [[String]]
    var bodyBase64: String

    init(_ request: ScriptedServer.Request) {
        method = request.method
        path = request.path
        query = request.query
        headers = request.headers.map { [$0.name, $0.value] }
        bodyBase64 = Data(request.body).base64EncodedString()
    }

    var json: String { String(decoding: try! JSONEncoder().encode(self), as: UTF8.self) }
    var body: [UInt8] { Array(Data(base64Encoded: bodyBase64) ?? Data()) }

    /// Every value sent for `name` (case-insensitive), in order.
    func header(_ name: String) -> [String] { headers.filter { $0[0].lowercased() == name.lowercased() }.map { $0[1] } }
}
