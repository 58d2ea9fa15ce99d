/// The result of a parse: the playlist and what was found wrong with it.
public struct ParsedPlaylist: Hashable, Sendable {
    /// The playlist.
    public let playlist: Playlist
    /// Diagnostics in line order.
    public let diagnostics: [Diagnostic]
    /// The variables the playlist declared (for a multivariant playlist, what its media
    /// playlists may IMPORT).
    public let variables: [String: String]
}
