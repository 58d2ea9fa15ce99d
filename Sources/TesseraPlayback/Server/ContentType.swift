/// Media types for the files an HLS server serves, by extension (RFC 8216bis §4, media.md §2.10).
/// Matches on UTF-8 bytes: no grapheme work on the per-request path.
enum ContentType {
    private static let table: [(suffix: [UInt8], type: String)] = [
        (".m3u8", "application/vnd.apple.mpegurl"), (".m3u", "application/vnd.apple.mpegurl"),
        (".ts", "video/mp2t"), (".mp4", "video/mp4"), (".m4s", "video/mp4"), (".m4v", "video/mp4"),
        (".m4a", "audio/mp4"), (".aac", "audio/aac"), (".vtt", "text/vtt"), (".webvtt", "text/vtt"),
        (".json", "application/json"), (".txt", "text/plain; charset=utf-8"), (".html", "text/html; charset=utf-8"),
    ].map { (Array($0.0.utf8), $0.1) }

    /// The media type for `path`, `application/octet-stream` when the extension is unknown.
    static func forPath(_ path: String) -> String {
        var utf8 = path.utf8
        for entry in table where hasSuffix(&utf8, entry.suffix) { return entry.type }
        return "application/octet-stream"
    }

    /// True for playlists (sent with `Cache-Control: no-cache`).
    static func isPlaylist(_ path: String) -> Bool {
        var utf8 = path.utf8
        return hasSuffix(&utf8, table[0].suffix) || hasSuffix(&utf8, table[1].suffix)
    }

    /// ASCII-case-insensitive byte suffix test.
    private static func hasSuffix(_ utf8: inout String.UTF8View, _ suffix: [UInt8]) -> Bool {
        guard utf8.count >= suffix.count else { return false }
        var index = utf8.index(utf8.endIndex, offsetBy: -suffix.count)
        for expected in suffix {
            let byte = utf8[index]
            let lowered = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard lowered == expected else { return false }
            index = utf8.index(after: index)
        }
        return true
    }
}
