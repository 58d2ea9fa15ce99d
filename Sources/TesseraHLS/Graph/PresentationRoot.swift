#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// A multivariant playlist ready to have its children loaded: parsed, with the media playlists it
/// references listed once per resolved URL.
public struct PresentationRoot: Sendable {
    /// One media playlist to load.
    public struct Child: Sendable {
        /// The URI as written.
        public let uri: String
        /// The URI resolved, or the error that kept it from resolving.
        public let url: Result<URL, HLSError>
        /// Every reference to it.
        public internal(set) var references: [GraphReference]
    }

    /// The parsed multivariant playlist (its model, diagnostics and variables).
    public let parsed: ParsedPlaylist
    /// The multivariant model.
    public let multivariant: MultivariantPlaylist
    /// The URL it was requested from.
    public let url: URL
    /// The URL children resolve against (the one that answered, or the `--base` of a file).
    public let baseURL: URL
    /// The media playlists to load, in order of first reference: variants, I-frame variants,
    /// renditions.
    public let children: [Child]

    init(parsed: ParsedPlaylist, multivariant: MultivariantPlaylist, url: URL, baseURL: URL,
         resolve: (String, Int) -> Result<URL, HLSError>) {
        self.parsed = parsed
        self.multivariant = multivariant
        self.url = url
        self.baseURL = baseURL
        var children: [Child] = []
        var position: [String: Int] = [:]
        func add(_ uri: String, _ reference: GraphReference) {
            let url = resolve(uri, reference.line)
            // Resolved URIs are shared by URL; one that did not resolve (its error kept) by its text.
            let key = (try? url.get().absoluteString) ?? "\u{0}" + uri
            if let index = position[key] {
                children[index].references.append(reference)
            } else {
                position[key] = children.count
                children.append(Child(uri: uri, url: url, references: [reference]))
            }
        }
        for (index, variant) in multivariant.variants.enumerated() {
            add(variant.uri, GraphReference(role: .variant, pathwayId: variant.pathwayId ?? ".", index: index, line: variant.line.number))
        }
        for (index, variant) in multivariant.iFrameVariants.enumerated() {
            add(variant.uri, GraphReference(role: .iFrame, pathwayId: variant.pathwayId ?? ".", index: index, line: variant.line.number))
        }
        for (index, rendition) in multivariant.renditions.enumerated() {
            guard let uri = rendition.uri else { continue }
            add(uri, GraphReference(role: PlaylistRole(rendition.type), groupId: rendition.groupId, index: index, line: rendition.line.number))
        }
        self.children = children
    }
}
