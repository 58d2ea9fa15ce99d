#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a parse needs from outside the document: the playlist's URL (for EXT-X-DEFINE
/// QUERYPARAM, after redirects) and the multivariant playlist's variables (for IMPORT).
public struct ParseContext: Sendable {
    /// The URL the playlist was fetched from, after redirects.
    public var playlistURL: URL?
    /// Variables declared by the multivariant playlist this media playlist was loaded from, or
    /// nil when it was not loaded through one.
    public var importableVariables: [String: String]?

    /// A context.
    public init(playlistURL: URL? = nil, importableVariables: [String: String]? = nil) {
        self.playlistURL = playlistURL
        self.importableVariables = importableVariables
    }
}
