import Foundation
import TesseraHTTPTesting

/// An in-memory origin for the scaling gate: the generated playlists stubbed on a `MockTransport`,
/// so the graph and the package plan are timed through the real loaders and pipeline without a
/// socket in the measurement.
struct Origin: Sendable {
    static let base = URL(string: "https://origin.test/")!
    let transport = MockTransport()
    let master = URL(string: "master.m3u8", relativeTo: Origin.base)!.absoluteURL

    /// Two video variants and (unless `audio` is false) two audio renditions, each a
    /// PROGRAM-DATE-TIME playlist of n segments.
    init(presentation n: Int, audio: Bool = true) {
        let media = Array(PlaylistGenerator.media(segments: n, variant: "pdt").utf8)
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        for language in audio ? ["en", "fr"] : [] {
            text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"\(language)\",LANGUAGE=\"\(language)\",DEFAULT=\(language == "en" ? "YES" : "NO"),"
                + "AUTOSELECT=YES,CHANNELS=\"2\",URI=\"audio/\(language).m3u8\"\n"
            stub("audio/\(language).m3u8", media)
        }
        for (index, height) in [720, 1080].enumerated() {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\((index + 1) * 3_000_000),CODECS=\"avc1.64001f,mp4a.40.2\","
                + "RESOLUTION=\(height * 16 / 9)x\(height),FRAME-RATE=25.000\(audio ? ",AUDIO=\"aud\"" : "")\nvideo/\(height).m3u8\n"
            stub("video/\(height).m3u8", media)
        }
        stub("master.m3u8", Array(text.utf8))
    }

    /// The benchmark's multivariant playlist with n variants; every playlist it names has 3 segments.
    init(variants n: Int) {
        let media = Array(PlaylistGenerator.media(segments: 3, variant: "plain").utf8)
        let text = PlaylistGenerator.multivariant(variants: n)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#EXT-X-MEDIA:"), let uri = line.split(separator: "URI=\"").last?.split(separator: "\"").first {
                stub(String(uri), media)
            } else if !line.hasPrefix("#") {
                stub(String(line), media)
            }
        }
        stub("master.m3u8", Array(text.utf8))
    }

    private func stub(_ path: String, _ body: [UInt8]) {
        transport.stub(URL(string: path, relativeTo: Origin.base)!.absoluteURL, .ok(body))
    }
}
