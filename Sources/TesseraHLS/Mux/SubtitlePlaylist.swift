import TesseraPlaylist

/// What a media playlist's URIs say of its segments' format, before any is fetched.
enum SubtitlePlaylist {
    /// The extensions of WebVTT segments.
    private static let extensions: Set<String> = ["vtt", "webvtt"]

    /// Whether every segment of `playlist` (it has one or more) names a WebVTT file
    /// (`.vtt`, `.webvtt`, before any query).
    /// - Complexity: O(n) in the segments, without a copy of them (a 500,000-segment playlist's
    ///   segments are 48 MB).
    static func isWebVTT(_ playlist: MediaPlaylist) -> Bool {
        var named = false
        for segment in playlist.segments where !segment.isGap {
            let path = segment.uri.prefix { $0 != "?" && $0 != "#" }
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/"),
                  extensions.contains(path[path.index(after: dot)...].lowercased()) else { return false }
            named = true
        }
        return named
    }
}
