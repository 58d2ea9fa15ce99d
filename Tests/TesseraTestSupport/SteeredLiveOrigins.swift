import Foundation
import TesseraPlayback

/// Two Content Steering pathways of one live stream: pathway A on 127.0.0.1 (which also serves
/// `master.m3u8` — one variant per pathway, the same STABLE-VARIANT-ID — and `steer.json`,
/// priority A then B) and pathway B on 127.0.0.2, publishing alike.
public final class SteeredLiveOrigins: Sendable {
    public let a: LiveOriginHost
    public let b: LiveOriginHost

    /// Origins of `configuration`, with `published` parts out and `media` served; with
    /// `reportB`, A's playlists carry a RENDITION-REPORT of B's.
    public init(_ configuration: LiveOriginPlaylist.Configuration, published: Int = 8, media: [[UInt8]] = [], reportB: Bool = false) throws {
        b = try LiveOriginHost(LiveOrigin(configuration, published: published, media: media), address: try LoopbackAddress("127.0.0.2"))
        let other = b.playlistURL.absoluteString
        var configuration = configuration
        if reportB { configuration.renditionReports = [other] }
        let master = """
            #EXTM3U
            #EXT-X-CONTENT-STEERING:SERVER-URI="steer.json",PATHWAY-ID="A"
            #EXT-X-STREAM-INF:BANDWIDTH=900000,PATHWAY-ID="A",STABLE-VARIANT-ID="v"
            live.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,PATHWAY-ID="B",STABLE-VARIANT-ID="v"
            \(other)

            """
        let steer = #"{"VERSION":1,"TTL":300,"PATHWAY-PRIORITY":["A","B"]}"#
        a = try LiveOriginHost(LiveOrigin(configuration, published: published, media: media,
                                          files: ["/master.m3u8": ("application/vnd.apple.mpegurl", Array(master.utf8)),
                                                  "/steer.json": ("application/json", Array(steer.utf8))]))
    }

    /// The multivariant playlist.
    public var masterURL: URL { a.server.baseURL.appendingPathComponent("master.m3u8") }
}
