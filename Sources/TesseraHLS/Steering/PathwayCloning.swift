#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// Applies a pathway clone to a multivariant playlist (draft-pantos-hls-rfc8216bis §7.3): the
/// base pathway's variants and I-frame variants are copied onto the new pathway, with every
/// rendition group they reference copied under a fresh GROUP-ID; each copied URI is made
/// absolute, given the clone's HOST and PARAMS (sorted by name, a parameter of the same name
/// replaced), unless PER-VARIANT-URIS / PER-RENDITION-URIS name its stable ID, whose URI then
/// replaces it whole.
public enum PathwayCloning {
    /// `playlist` (fetched from `base`) with `clone` applied; nil when its BASE-ID is not a
    /// pathway of the playlist or its ID already is one (clones are idempotent across reloads).
    public static func apply(_ clone: PathwayClone, to playlist: MultivariantPlaylist, base: URL) -> MultivariantPlaylist? {
        let pathways = Set((playlist.variants + playlist.iFrameVariants).map { $0.pathwayId ?? "." })
        guard pathways.contains(clone.baseId), !pathways.contains(clone.id) else { return nil }
        var result = playlist
        var groupNames = Set(playlist.renditions.map { "\($0.type)\u{0}\($0.groupId)" })
        var renamed: [String: String] = [:]    // "TYPE\0group" → the copy's GROUP-ID
        func copiedGroup(_ type: Rendition.MediaType, _ group: String?) -> String? {
            guard let group, type != .closedCaptions else { return group }
            let key = "\(type)\u{0}\(group)"
            if let name = renamed[key] { return name }
            var name = "\(group)-\(clone.id)"
            var counter = 2
            while groupNames.contains("\(type)\u{0}\(name)") { name = "\(group)-\(clone.id)-\(counter)"; counter += 1 }
            groupNames.insert("\(type)\u{0}\(name)")
            renamed[key] = name
            for rendition in playlist.renditions where rendition.type == type && rendition.groupId == group {
                var copy = rendition
                copy.groupId = name
                if let uri = rendition.uri {
                    copy.uri = rendition.stableRenditionId.flatMap { clone.perRenditionURIs[$0] } ?? replaced(uri, clone, base: base)
                }
                result.renditions.append(copy)
            }
            return name
        }
        func copy(_ variant: Variant) -> Variant {
            var copy = variant
            copy.pathwayId = clone.id
            copy.uri = variant.stableVariantId.flatMap { clone.perVariantURIs[$0] } ?? replaced(variant.uri, clone, base: base)
            copy.audio = copiedGroup(.audio, variant.audio)
            copy.video = copiedGroup(.video, variant.video)
            copy.subtitles = copiedGroup(.subtitles, variant.subtitles)
            return copy
        }
        result.variants += playlist.variants.filter { ($0.pathwayId ?? ".") == clone.baseId }.map(copy)
        result.iFrameVariants += playlist.iFrameVariants.filter { ($0.pathwayId ?? ".") == clone.baseId }.map(copy)
        return result
    }

    /// `uri` made absolute against `base`, with the clone's HOST and PARAMS.
    static func replaced(_ uri: String, _ clone: PathwayClone, base: URL) -> String {
        guard let absolute = URL(string: uri, relativeTo: base)?.absoluteURL,
              var components = URLComponents(url: absolute, resolvingAgainstBaseURL: false) else { return uri }
        if let host = clone.host { components.host = host }
        if !clone.params.isEmpty {
            var items = (components.queryItems ?? []).filter { clone.params[$0.name] == nil }
            items += clone.params.keys.sorted().map { URLQueryItem(name: $0, value: clone.params[$0]) }
            components.queryItems = items
        }
        return components.url?.absoluteString ?? absolute.absoluteString
    }
}
