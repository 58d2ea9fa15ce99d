/// Parses playlist bytes into a `Playlist` (RFC 8216bis §4).
///
/// This is the foundation's parser: it reads what a download needs (segments, durations, byte
/// ranges, discontinuities, keys, maps, media sequence, end list, playlist type) exactly, and
/// recognises multivariant playlists. Unknown tags are skipped; the complete tag set, variable
/// substitution and diagnostics come with the playlist-engine issue.
public struct PlaylistParser: Sendable {
    /// The bounds enforced.
    public var limits: PlaylistLimits

    /// A parser with `limits`.
    public init(limits: PlaylistLimits = PlaylistLimits()) { self.limits = limits }

    /// Parses a document.
    /// - Throws: `PlaylistError` for a document that is not a playlist, is not UTF-8, exceeds a
    ///   bound, or has a malformed tag that a download depends on.
    /// - Complexity: O(n) in the document's length.
    public func parse(_ bytes: [UInt8]) throws(PlaylistError) -> Playlist {
        let text = try PlaylistText(bytes, limits: limits)   // checks the #EXTM3U signature
        var builder = MediaPlaylistBuilder(limits: limits)
        var variantURIs: [String] = []
        var expectsVariantURI = false
        for line in text.lines.dropFirst() {
            let content = text.text(line)
            if content.isEmpty { continue }
            if content.hasPrefix("#") {
                if content.hasPrefix("#EXT-X-STREAM-INF") { expectsVariantURI = true }
                guard content.hasPrefix("#EXT") else { continue }   // a comment
                try builder.apply(tag: content, line: line.number)
            } else if expectsVariantURI {
                expectsVariantURI = false
                variantURIs.append(String(content))
                guard variantURIs.count <= limits.maximumElements else {
                    throw PlaylistError(.limitExceeded, "More than \(limits.maximumElements) variants.", line: line.number)
                }
            } else {
                try builder.addSegment(uri: content, line: line.number)
            }
        }
        if !variantURIs.isEmpty || builder.sawMultivariantTag { return .multivariant(variantURIs: variantURIs) }
        return .media(try builder.finish())
    }
}
