import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraLive
import TesseraPlaylist
import TesseraSupport

/// The reloader reads every playlist through the house's one reader: a live media playlist
/// importing the multivariant playlist's EXT-X-DEFINE variables has them on every reload, as its
/// first load does.
@Suite("Live reloader: imported variables on every reload")
struct LiveReloaderVariablesTests {
    static let master = "https://live.example/master.m3u8"
    static let media = "https://live.example/v.m3u8"

    static func media(_ range: ClosedRange<Int>, endList: Bool = false) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-DEFINE:IMPORT=\"token\"\n#EXT-X-TARGETDURATION:4\n"
        text += "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES\n#EXT-X-MEDIA-SEQUENCE:\(range.lowerBound)\n"
        text += range.map { "#EXTINF:4.0,\ns\($0).ts?t={$token}\n" }.joined()
        return Array((text + (endList ? "#EXT-X-ENDLIST\n" : "")).utf8)
    }

    @Test("the multivariant playlist's variable is substituted in the first load and in each blocking reload")
    func importedOnReload() async throws {
        let transport = MockTransport()
        let multivariant = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-DEFINE:NAME=\"token\",VALUE=\"s3cr3t\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=800000\nv.m3u8\n"
        transport.stub(URL(string: Self.master)!, .ok(Array(multivariant.utf8)))
        transport.stub(URL(string: Self.media)!, .ok(Self.media(10...11)))
        transport.stub(URL(string: Self.media + "?_HLS_msn=12")!, .ok(Self.media(10...12)))
        transport.stub(URL(string: Self.media + "?_HLS_msn=13")!, .ok(Self.media(11...13, endList: true)))
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        let reloader = LiveReloader(url: URL(string: Self.master)!,
                                    client: HLSClient(transport: transport, configuration: configuration, clock: ImmediateClock()))
        let channel = SnapshotChannel()
        let collector = Task { () -> [LiveSnapshot] in
            var snapshots: [LiveSnapshot] = []
            for await snapshot in channel { snapshots.append(snapshot) }
            return snapshots
        }
        try await reloader.run(into: channel)
        let snapshots = await collector.value
        let last = try #require(snapshots.last)
        #expect(last.playlist.hasEndList && last.playlist.segments.map(\.uri) == ["s11.ts?t=s3cr3t", "s12.ts?t=s3cr3t", "s13.ts?t=s3cr3t"])
        for snapshot in snapshots {
            #expect(snapshot.playlist.segments.allSatisfy { $0.uri.hasSuffix("?t=s3cr3t") }, "every load imports the variable")
        }
        #expect(transport.requests.map(\.url.absoluteString) == [Self.master, Self.media, Self.media + "?_HLS_msn=12", Self.media + "?_HLS_msn=13"])
    }
}
