/// A parsed playlist: a media playlist, or a multivariant playlist (which this version only
/// recognises; its full model is the playlist-engine issue's).
public enum Playlist: Sendable {
    /// A media playlist.
    case media(MediaPlaylist)
    /// A multivariant playlist, with the URIs of its variant streams in order.
    case multivariant(variantURIs: [String])
}
