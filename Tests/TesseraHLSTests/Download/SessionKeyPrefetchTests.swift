import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTPTesting
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

@Suite("Session keys fetched early (opt-in), used only for the selected media's own keys")
struct SessionKeyPrefetchTests {
    @Test("the media's key comes from the prefetch (one request in all); a session key the media does not name is never used")
    func prefetch() async throws {
        let tree = try TemporaryDirectory()
        for name in ["index.m3u8", "key.bin", "seg_005.ts", "seg_006.ts", "seg_007.ts", "seg_008.ts"] {
            _ = try tree.write("c/\(name)", try FixtureStore.bytes("c_ts_aes_noiv/\(name)"))
        }
        _ = try tree.write("other.bin", Array(repeating: 0xAA, count: 16))
        _ = try tree.write("master.m3u8", Array("""
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-SESSION-KEY:METHOD=AES-128,URI="c/key.bin"
        #EXT-X-SESSION-KEY:METHOD=AES-128,URI="other.bin"
        #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://drm",KEYFORMAT="com.apple.streamingkeydelivery"
        #EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS="avc1.4d400c,mp4a.40.2"
        c/index.m3u8

        """.utf8))
        let harness = try DownloadHarness(root: tree.url)
        var options = SingleFileDownload.Options()
        options.prefetchSessionKeys = true
        let report = try await harness.download("/master.m3u8", options: options)
        #expect(report.sha256 == SHA256Hasher.hash(try DownloadHarness.clearReference()))
        #expect(harness.origin.attempts("/c/key.bin") == 1, "the prefetched key is the media's: no second request")
        #expect(harness.origin.attempts("/other.bin") <= 1, "fetched early at most once, and unused")
        #expect(!harness.origin.log.contains { $0.path.contains("drm") }, "only identity AES-128 session keys are prefetched")
        let plain = try DownloadHarness(root: tree.url)
        _ = try await plain.download("/master.m3u8")
        #expect(plain.origin.attempts("/other.bin") == 0 && plain.origin.attempts("/c/key.bin") == 1, "off by default")
    }
}

@Suite("SessionKeyPrefetch and the key cache (mock transport)")
struct SessionKeyPrefetchCacheTests {
    @Test("a prefetched key is taken by the cache for the same URL without a request; another URL is fetched as usual")
    func reuse() async throws {
        let mock = MockTransport()
        let master = URL(string: "https://cdn.example/master.m3u8")!
        mock.stub(URL(string: "https://keys.example/k1")!, .ok(Array(repeating: 1, count: 16)))
        mock.stub(URL(string: "https://keys.example/k2")!, .ok(Array(repeating: 2, count: 16)))
        var playlist = MultivariantPlaylist()
        playlist.sessionKeys = [SegmentKey(method: .aes128, uri: "https://keys.example/k1")]
        let client = HLSClient(transport: mock, clock: ImmediateClock())
        let fetcher = client.fetcher(events: nil)
        let prefetch = SessionKeyPrefetch(playlist, url: master, loader: PlaylistLoader(fetcher: fetcher))
        #expect(await prefetch.key(at: URL(string: "https://keys.example/k1")!) == Array(repeating: 1, count: 16))
        #expect(mock.requests.count == 1)
        let cache = KeyCache(fetcher: fetcher, resolver: PlaylistURLResolver(playlistURL: URL(string: "https://cdn.example/v/media.m3u8")!),
                             prefetched: prefetch)
        let first = try await cache.key(KeyReference(uri: "https://keys.example/k1", stream: .main))
        #expect(first.bytes == Array(repeating: 1, count: 16) && mock.requests.count == 1, "taken from the prefetch")
        _ = try await cache.key(KeyReference(uri: "https://keys.example/k2", stream: .main))
        #expect(mock.requests.count == 2, "a key the session did not announce is fetched")
    }
}
