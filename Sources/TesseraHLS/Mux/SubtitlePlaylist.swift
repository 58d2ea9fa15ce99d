import TesseraPlaylist

/// What a media playlist's URIs say of its segments' format, before any is fetched.
enum SubtitlePlaylist {
    /// The extensions of WebVTT segments.
    private static let extensions: Set<String> = ["vtt", "webvtt"]

    /// Whether every segment of `playlist` (it has one or more) names a WebVTT file
    /// (`.vtt`, `.webvtt`, before any query).
    static func isWebVTT(_ playlist: MediaPlaylist) -> Bool {
        let segments = playlist.segments.filter { !$0.isGap }
        return !segments.isEmpty && segments.allSatisfy { segment in
            let path = segment.uri.prefix { $0 != "?" && $0 != "#" }
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
            return extensions.contains(path[path.index(after: dot)...].lowercased())
        }
    }
}
