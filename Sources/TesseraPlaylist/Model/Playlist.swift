/// A parsed playlist (RFC 8216bis §4.1: a media playlist or a multivariant playlist).
public enum Playlist: Hashable, Sendable {
    /// A media playlist.
    case media(MediaPlaylist)
    /// A multivariant playlist.
    case multivariant(MultivariantPlaylist)
}
