import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraPlayback

/// Two Content Steering pathways, each a loopback host of its own: pathway A on 127.0.0.1
/// (which also serves the multivariant playlist and the steering manifest) and pathway B on
/// 127.0.0.2, each an origin simulator over its own folder; a transport and an output folder.
public final class TwoPathwayOrigins: Sendable {
    /// What pathway A serves.
    public let tree: TemporaryDirectory
    /// What pathway B serves.
    public let other: TemporaryDirectory
    /// Pathway A's origin.
    public let a: OriginSimulator
    /// Pathway B's origin.
    public let b: OriginSimulator
    public let transport: CurlTransport
    /// Where jobs write.
    public let output: TemporaryDirectory

    /// Both folders get what `fill` writes; `fill` runs before the origins start.
    public init(fill: (TemporaryDirectory) throws -> Void) throws {
        tree = try TemporaryDirectory()
        other = try TemporaryDirectory()
        try fill(tree)
        try fill(other)
        a = try OriginSimulator(root: tree.url)
        var configuration = OriginSimulator.defaultConfiguration
        configuration.address = try LoopbackAddress("127.0.0.2")
        b = try OriginSimulator(root: other.url, configuration: configuration)
        transport = try CurlTransport.loopback()
        output = try TemporaryDirectory()
    }

    deinit {
        transport.shutdown()
        a.shutdown()
        b.shutdown()
    }

    /// A client that does not retry (a failure is the pathway's at once), on a manual clock
    /// (steering reloads wait for ever; retries and deadlines are tested elsewhere).
    public func client() -> HLSClient {
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        return HLSClient(transport: transport, configuration: configuration, clock: ManualClock())
    }
}
