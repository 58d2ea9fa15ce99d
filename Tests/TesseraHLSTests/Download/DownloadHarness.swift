import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport
import TesseraSupport

/// The fixtures on a loopback origin, a real libcurl transport, an output folder, a clock whose
/// retry waits cost no time, and the events of every job run through it.
final class DownloadHarness: Sendable {
    let origin: OriginSimulator
    let transport: CurlTransport
    let output: TemporaryDirectory
    let clock = ImmediateClock()
    private let recorded = Lock<[SingleFileDownload.Event]>([])

    /// Events of the jobs so far, in order.
    var events: [SingleFileDownload.Event] { recorded.withLock { $0 } }

    /// Serves `root`; jobs write under `outputParent` (the system temporary folder when nil).
    init(root: URL = FixtureStore.root, outputParent: URL? = nil) throws {
        origin = try OriginSimulator(root: root)
        transport = try CurlTransport.loopback()
        output = try TemporaryDirectory(under: outputParent)
    }

    deinit {
        transport.shutdown()
        origin.shutdown()
    }

    var destination: URL { output.url.appendingPathComponent("out.ts") }

    /// The HLS client every job of the harness uses: the loopback transport, the default HLS
    /// policies, the immediate clock.
    var client: HLSClient { HLSClient(transport: transport, clock: clock) }

    func download(_ path: String, to destination: URL? = nil, options: SingleFileDownload.Options = .init())
        async throws(HLSError) -> DownloadReport {
        // The immediate clock would end any resource deadline at once: deadlines have their own tests.
        var options = options
        options.resourceDeadline = nil
        return try await SingleFileDownload(playlistURL: origin.url(path), destination: destination ?? self.destination,
                                            client: client, options: options).run { [recorded] event in
            recorded.withLock { $0.append(event) }
        }
    }

    func failure(_ path: String, to destination: URL? = nil, options: SingleFileDownload.Options = .init()) async -> HLSError? {
        do {
            _ = try await download(path, to: destination, options: options)
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

    /// The hidden files a resumable job keeps beside `out.ts` after a transient failure.
    static let keptState = [".out.ts.tessera-checkpoint", ".out.ts.tessera-partial"]

    /// The resources the last `resumed` event reported, or nil.
    var resumedResources: Int? {
        events.lazy.compactMap { if case .resumed(let resources, _) = $0 { resources } else { nil } }.last
    }

    /// The clear reference of every TS fixture: a_ts_vod's segments concatenated.
    static func clearReference() throws -> [UInt8] {
        try (0..<4).flatMap { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
    }
}
