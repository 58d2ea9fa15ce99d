import Foundation
import TesseraHTTP
import TesseraTestSupport

/// An origin simulator over a temporary tree plus a real libcurl transport pointed at it.
final class TransportHarness: Sendable {
    static let small = TemporaryDirectory.pattern(count: 10_000, seed: 1)
    static let big = TemporaryDirectory.pattern(count: 4 << 20, seed: 2)

    let directory: TemporaryDirectory
    let origin: OriginSimulator
    let transport: CurlTransport

    init(configuration: CurlTransport.Configuration = CurlTransport.loopbackConfiguration) throws {
        directory = try TemporaryDirectory()
        try directory.write("small.bin", Self.small)
        try directory.write("big.bin", Self.big)
        try directory.write("empty.bin", [])
        // A reader starved by a loaded suite (two cores, every test at once) can leave its paused
        // transfer unread for half a minute: the origin's idle timeout would cut it, which these
        // tests of the client's own buffering are not about.
        origin = try OriginSimulator(root: directory.url, configuration: OriginSimulator.patientConfiguration)
        transport = try CurlTransport(configuration: configuration)
    }

    deinit {
        transport.shutdown()
        origin.shutdown()
    }

    func request(_ path: String, _ adjust: (inout HTTPRequest) -> Void = { _ in }) -> HTTPRequest {
        var request = HTTPRequest(url: origin.url(path))
        adjust(&request)
        return request
    }

    /// Sends and collects the whole body.
    func fetch(_ path: String, _ adjust: (inout HTTPRequest) -> Void = { _ in }) async throws(HTTPError) -> (HTTPResponseHead, [UInt8]) {
        let response = try await transport.send(request(path, adjust))
        return (response.head, try await response.body.collect(upTo: 64 << 20))
    }

    /// The error a fetch ends with, or nil when it succeeded.
    func failure(_ path: String, _ adjust: (inout HTTPRequest) -> Void = { _ in }) async -> HTTPError? {
        do {
            _ = try await fetch(path, adjust)
            return nil
        } catch {
            return error
        }
    }
}
