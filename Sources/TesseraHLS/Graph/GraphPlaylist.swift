#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// One media playlist of a presentation: where it is, every tag that references it, and what
/// loading it gave.
public struct GraphPlaylist: Sendable {
    /// What loading the playlist gave.
    public enum Outcome: Sendable {
        /// It loaded and parsed as a media playlist; its facts (the playlist itself is in
        /// `playlist` only when the loader was asked to keep it).
        case loaded(MediaPlaylistFacts)
        /// It could not be loaded or is not a media playlist (lenient loading).
        case failed(HLSError)
    }

    /// The URI as written in the multivariant playlist.
    public let uri: String
    /// The URI resolved against the multivariant playlist's final URL (nil when it cannot be
    /// resolved; the answer may come from a redirect target, `finalURL`).
    public let url: URL?
    /// Every reference to it, in the multivariant playlist's order (never empty).
    public let references: [GraphReference]
    /// The URL that answered, after redirects (nil when it failed).
    public let finalURL: URL?
    /// What loading it gave.
    public let outcome: Outcome
    /// The parsed playlist, when the loader keeps playlists (`PresentationGraphLoader.Options.keepPlaylists`).
    public let playlist: MediaPlaylist?

    /// Creates an entry.
    public init(uri: String, url: URL?, references: [GraphReference], finalURL: URL?, outcome: Outcome, playlist: MediaPlaylist? = nil) {
        precondition(!references.isEmpty, "a graph playlist is referenced at least once")
        self.uri = uri
        self.url = url
        self.references = references
        self.finalURL = finalURL
        self.outcome = outcome
        self.playlist = playlist
    }

    /// The first reference's role.
    public var role: PlaylistRole { references[0].role }
    /// The first reference's group (renditions).
    public var groupId: String? { references.first { $0.groupId != nil }?.groupId }
    /// The first reference's pathway (variants).
    public var pathwayId: String? { references.first { $0.pathwayId != nil }?.pathwayId }
    /// The facts, when it loaded.
    public var facts: MediaPlaylistFacts? {
        if case .loaded(let facts) = outcome { return facts }
        return nil
    }
    /// True when any reference has `role`.
    public func hasRole(_ role: PlaylistRole) -> Bool { references.contains { $0.role == role } }
}
