#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// A whole presentation as a value: the multivariant playlist, every media playlist it
/// references (each URI once) with its role, group and pathway, and the diagnostics of every
/// playlist and between them. A diagnostic's `source` is `.index(i)` for `playlists[i]` and nil
/// for the multivariant playlist.
public struct PresentationGraph: Sendable {
    /// The multivariant playlist.
    public let multivariant: MultivariantPlaylist
    /// The URL it was requested from.
    public let url: URL
    /// The URL that answered (children resolve against it).
    public let finalURL: URL
    /// Its variables (EXT-X-DEFINE), the ones children may IMPORT.
    public let variables: [String: String]
    /// Every referenced media playlist, in the order of first reference: variants, then
    /// I-frame variants, then renditions.
    public let playlists: [GraphPlaylist]
    /// Every diagnostic: the multivariant playlist's, each child's, then the cross-playlist ones.
    public let diagnostics: [Diagnostic]

    /// Creates a graph.
    public init(multivariant: MultivariantPlaylist, url: URL, finalURL: URL, variables: [String: String],
                playlists: [GraphPlaylist], diagnostics: [Diagnostic]) {
        self.multivariant = multivariant
        self.url = url
        self.finalURL = finalURL
        self.variables = variables
        self.playlists = playlists
        self.diagnostics = diagnostics
    }

    /// The pathways, in order of first appearance ("." for variants without PATHWAY-ID).
    public var pathways: [String] {
        var seen: [String] = []
        for variant in multivariant.variants {
            let id = variant.pathwayId ?? "."
            if !seen.contains(id) { seen.append(id) }
        }
        return seen
    }

    /// The index in `playlists` of the playlist that `role`'s tag at `index` references.
    public func playlistIndex(role: PlaylistRole, index: Int) -> Int? {
        playlists.firstIndex { $0.references.contains { $0.role == role && $0.index == index } }
    }

    /// The variants whose playlist could not be loaded, by index in the multivariant playlist,
    /// with why — what a selection must refuse (`PresentationSelector.select(_:from:unavailable:)`).
    /// - Complexity: O(playlists × references).
    public var unloadableVariants: [Int: String] {
        var unloadable: [Int: String] = [:]
        for playlist in playlists {
            guard case .failed(let error) = playlist.outcome else { continue }
            for reference in playlist.references where reference.role == .variant {
                unloadable[reference.index] = "its playlist could not be loaded (\(error.code))"
            }
        }
        return unloadable
    }
}
