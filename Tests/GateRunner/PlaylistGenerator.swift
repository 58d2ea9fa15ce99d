import Foundation

/// Synthetic playlists for the parse benchmark and the scaling gate, in the shapes the peer
/// baseline uses: VOD media playlists of N segments (plain; PROGRAM-DATE-TIME on every segment;
/// byte ranges into one file; an AES-128 key rotated every 100 segments) and a multivariant
/// playlist with N variants (200 for the benchmark) and 50 renditions.
enum PlaylistGenerator {
    static let segmentDuration = 2.0

    static func media(segments n: Int, variant: String) -> String {
        let version = variant == "byterange" ? 4 : 3
        var out = "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        out.reserveCapacity(n * 90)
        let start = Date(timeIntervalSince1970: 1_735_689_600)   // 2025-01-01T00:00:00Z
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for i in 0..<n {
            if variant == "key", i % 100 == 0 {
                let k = i / 100
                out += "#EXT-X-KEY:METHOD=AES-128,URI=\"keys/key_\(pad(k, 5)).key\",IV=0x\(pad(k, 32))\n"
            }
            if variant == "pdt" {
                out += "#EXT-X-PROGRAM-DATE-TIME:" + formatter.string(from: start + segmentDuration * Double(i)) + "\n"
            }
            out += "#EXTINF:2.000,\n"
            if variant == "byterange" {
                out += "#EXT-X-BYTERANGE:1000000@\(i * 1_000_000)\nmedia.ts\n"
            } else {
                out += "seg_\(pad(i, 7)).ts\n"
            }
        }
        return out + "#EXT-X-ENDLIST\n"
    }

    static func multivariant(variants: Int = 200) -> String {
        var out = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        let languages = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "ja", "ko"]
        for group in 0..<4 {
            for (index, language) in languages.enumerated() {
                out += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\(group)\",NAME=\"\(language)-\(group)\",LANGUAGE=\"\(language)\","
                    + "DEFAULT=\(index == 0 ? "YES" : "NO"),AUTOSELECT=YES,CHANNELS=\"2\",URI=\"audio/\(group)/\(language).m3u8\"\n"
            }
        }
        for (index, language) in languages.enumerated() {
            out += "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"\(language)\",LANGUAGE=\"\(language)\","
                + "DEFAULT=\(index == 0 ? "YES" : "NO"),AUTOSELECT=YES,URI=\"subs/\(language).m3u8\"\n"
        }
        for v in 0..<variants {
            let height = 144 + (v % 20) * 54
            out += "#EXT-X-STREAM-INF:BANDWIDTH=\(200_000 + v * 40_000),AVERAGE-BANDWIDTH=\(180_000 + v * 36_000),"
                + "CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=\(height * 16 / 9)x\(height),FRAME-RATE=29.970,"
                + "AUDIO=\"aud\(v % 4)\",SUBTITLES=\"subs\"\nvideo/\(v)/index.m3u8\n"
        }
        return out
    }

    /// Writes the benchmark set under `folder`: `<variant>/media_<n>.m3u8` for every size and
    /// `multivariant/master.m3u8`.
    static func write(into folder: URL, sizes: [Int]) throws {
        for variant in ["plain", "pdt", "byterange", "key"] {
            let directory = folder.appendingPathComponent(variant)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for size in sizes {
                try Data(media(segments: size, variant: variant).utf8).write(to: directory.appendingPathComponent("media_\(size).m3u8"))
            }
        }
        let directory = folder.appendingPathComponent("multivariant")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(multivariant().utf8).write(to: directory.appendingPathComponent("master.m3u8"))
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
