import Foundation
import TesseraHTTP
import TesseraPlayback

/// A `LiveOrigin` on a loopback server, with a transport to reach it; both shut down with it.
public final class LiveOriginHost: Sendable {
    public let origin: LiveOrigin
    public let server: LoopbackServer
    public let transport: CurlTransport

    /// Serves `origin` on 127.0.0.1 (or `address`).
    public init(_ origin: LiveOrigin, address: LoopbackAddress = .ipv4) throws {
        self.origin = origin
        var configuration = LoopbackServer.Configuration()
        configuration.address = address
        server = try LoopbackServer(configuration: configuration, responder: origin)
        transport = try CurlTransport.loopback()
    }

    /// The live playlist's URL.
    public var playlistURL: URL { server.baseURL.appendingPathComponent("live.m3u8") }

    deinit {
        transport.shutdown()
        server.shutdown()
    }
}
