import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraTestSupport

/// The fixtures on a loopback origin, a real libcurl transport, and an output folder.
final class DownloadHarness: Sendable {
    let origin: OriginSimulator
    let transport: CurlTransport
    let output: TemporaryDirectory

    init(root: URL = FixtureStore.root) throws {
        origin = try OriginSimulator(root: root)
        transport = try CurlTransport.loopback()
        output = try TemporaryDirectory()
    }

    deinit {
        transport.shutdown()
        origin.shutdown()
    }

    var destination: URL { output.url.appendingPathComponent("out.ts") }

    func download(_ path: String, to destination: URL? = nil, options: SingleFileDownload.Options = .init())
        async throws(HLSError) -> DownloadReport {
        try await SingleFileDownload(playlistURL: origin.url(path), destination: destination ?? self.destination,
                                     transport: transport, options: options).run()
    }

    func failure(_ path: String, to destination: URL? = nil) async -> HLSError? {
        do {
            _ = try await download(path, to: destination)
            return nil
        } catch {
            return error
        }
    }

    /// Everything left in the output folder (must be empty after a failure: no partial files).
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: output.url.path).sorted()
    }

    func written() throws -> [UInt8] { [UInt8](try Data(contentsOf: destination)) }

    /// The clear reference of every TS fixture: a_ts_vod's segments concatenated.
    static func clearReference() throws -> [UInt8] {
        try (0..<4).flatMap { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
    }
}
