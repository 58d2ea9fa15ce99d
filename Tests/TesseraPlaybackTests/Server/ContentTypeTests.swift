import Testing
@testable import TesseraPlayback

@Suite("ContentType")
struct ContentTypeTests {
    @Test("HLS media types by extension, case-insensitively", arguments: [
        ("/a/index.m3u8", "application/vnd.apple.mpegurl"), ("/A/INDEX.M3U8", "application/vnd.apple.mpegurl"),
        ("/seg_001.ts", "video/mp2t"), ("/init.mp4", "video/mp4"), ("/seg.m4s", "video/mp4"),
        ("/subs.vtt", "text/vtt"), ("/key.bin", "application/octet-stream"), ("/ts", "application/octet-stream"),
    ])
    func types(path: String, expected: String) {
        #expect(ContentType.forPath(path) == expected)
    }

    @Test("only playlists are marked as playlists")
    func playlists() {
        #expect(ContentType.isPlaylist("/x/index.m3u8") && ContentType.isPlaylist("/x.M3U"))
        #expect(!ContentType.isPlaylist("/x.ts") && !ContentType.isPlaylist("m3u8"))
    }
}
