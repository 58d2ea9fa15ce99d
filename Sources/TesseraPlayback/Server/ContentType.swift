/// Media types for the files an HLS server serves, by extension (RFC 8216bis §4, media.md §2.10).
enum ContentType {
    static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
        switch path[path.index(after: dot)...].lowercased() {
        case "m3u8", "m3u": return "application/vnd.apple.mpegurl"
        case "ts": return "video/mp2t"
        case "mp4", "m4s", "m4v": return "video/mp4"
        case "m4a", "aac": return "audio/mp4"
        case "vtt", "webvtt": return "text/vtt"
        case "json": return "application/json"
        default: return "application/octet-stream"
        }
    }
}
