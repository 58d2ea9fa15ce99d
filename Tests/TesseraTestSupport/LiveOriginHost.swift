import Foundation
import TesseraHTTP
import TesseraPlayback

/// A `LiveOrigin` on a loopback server, with a transport to reach it; both shut down with it.
public final class LiveOriginHost: Sendable {
    public let origin: LiveOrigin
    public let server: LoopbackServer
    public let transport: CurlTransport

    /// Serves `origin` on 127.0.0.1 (or `address`).
    public convenience init(_ origin: LiveOrigin, address: LoopbackAddress = .ipv4) throws {
        try self.init(origin, responder: origin, address: address)
    }

    /// Serves a group of origins, `group.main` the one at the root.
    public convenience init(_ group: LiveOriginGroup, address: LoopbackAddress = .ipv4) throws {
        try self.init(group.main, responder: group, address: address)
    }

    private init(_ origin: LiveOrigin, responder: any HTTPResponder, address: LoopbackAddress) throws {
        self.origin = origin
        var configuration = LoopbackServer.Configuration()
        configuration.address = address
        server = try LoopbackServer(configuration: configuration, responder: responder)
        transport = try CurlTransport.loopback()
    }

    /// The live playlist's URL.
    public var playlistURL: URL { server.baseURL.appendingPathComponent("live.m3u8") }

    deinit {
        transport.shutdown()
        server.shutdown()
    }
}
