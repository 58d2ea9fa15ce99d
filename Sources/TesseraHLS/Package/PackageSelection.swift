#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// The playlists a package takes from a selection: the variant, each chosen rendition that has
/// its own playlist, and — asked — one I-frame stream; each with the reason it was chosen.
package enum PackageSelection {
    /// A playlist to load.
    package struct Chosen: Sendable {
        package let role: PackageTrack.Role
        package let key: PackagePlaylistKey
        package let provenance: String
        package let url: URL
        /// How it is found on another pathway, when the presentation steers.
        var equivalent: PathwayEquivalent?
    }

    /// The playlists of `selection` (made by `policy` from `multivariant`, fetched from `url`).
    /// - Throws: `invalid-playlist` for a URI that does not resolve.
    package static func sources(of selection: PresentationSelection, in multivariant: MultivariantPlaylist, at url: URL,
                        policy: SelectionPolicy, iFrames: Bool) throws(HLSError) -> [Chosen] {
        guard let variantIndex = selection.variant else { return [] }
        let variant = multivariant.variants[variantIndex]
        func reason(_ prefix: String, naming name: String? = nil) -> String {
            let lines = selection.reasons.filter { $0.hasPrefix(prefix) }
            if let name, let line = lines.first(where: { $0.contains("\"\(name)\"") }) { return line }
            return lines.first ?? prefix
        }
        var chosen = [Chosen(role: .video, key: .variant(variantIndex), provenance: "variant \(policy.variant): \(reason("variant "))",
                             url: try ResourceURL.resolve(variant.uri, against: url, what: "The variant of line \(variant.line.number)"))]
        for (role, indices, rendition) in [(PackageTrack.Role.audio, selection.audio, policy.audio),
                                           (.subtitles, selection.subtitles, policy.subtitles),
                                           (.alternativeVideo, selection.video, policy.video)] {
            for index in indices {
                let chosenRendition = multivariant.renditions[index]
                guard let uri = chosenRendition.uri else { continue }    // in the variant's own stream
                let label = RenditionSelector.label(chosenRendition.type)
                chosen.append(Chosen(role: role, key: .rendition(index),
                                     provenance: "\(label) \(rendition): \(reason("\(label):", naming: chosenRendition.name))",
                                     url: try ResourceURL.resolve(uri, against: url, what: "The rendition of line \(chosenRendition.line.number)")))
            }
        }
        if iFrames, let index = iFrameStream(selection.iFrameVariants, of: variant, in: multivariant) {
            let stream = multivariant.iFrameVariants[index]
            chosen.append(Chosen(role: .iFrames, key: .iFrameVariant(index),
                                 provenance: "I-frames asked: \(stream.resolution == variant.resolution ? "the variant's RESOLUTION" : "the highest BANDWIDTH playable")",
                                 url: try ResourceURL.resolve(stream.uri, against: url, what: "The I-frame stream of line \(stream.line.number)")))
        }
        return chosen
    }

    /// The one subtitle track of a subtitles-only download: the media playlist `given` as the
    /// presentation, else the one subtitle rendition chosen.
    /// - Throws: `no-matching-variant` when no subtitle rendition was chosen, or several were.
    static func subtitlesAlone(_ chosen: [Chosen], given: Bool, reasons: [String]) throws(HLSError) -> [Chosen] {
        if given, let playlist = chosen.first {
            return [Chosen(role: .subtitles, key: playlist.key, provenance: "the subtitles media playlist given", url: playlist.url)]
        }
        let subtitles = chosen.filter { $0.role == .subtitles }
        guard subtitles.count == 1 else {
            let why = subtitles.isEmpty ? (reasons.last { $0.hasPrefix("subtitles") } ?? "no subtitle rendition") : "\(subtitles.count) subtitle renditions"
            throw HLSError(.noMatchingVariant, "A subtitles file holds one track and the selection chose \(subtitles.isEmpty ? "none" : "several"): \(why) "
                           + "(choose one with --subtitles lang:<tag> or name:<NAME>).")
        }
        return subtitles
    }

    /// The chosen playlists of a steered presentation with how each is found on every other
    /// pathway of `multivariant`: by STABLE-VARIANT-ID, or STABLE-RENDITION-ID in the groups of
    /// that pathway's variant. A package can fail over mid-transfer only when every one of them
    /// has its equivalent on every pathway.
    /// - Throws: `unsupported` naming what has no stable ID, or the pathway that lacks it.
    static func steered(_ chosen: [Chosen], in multivariant: MultivariantPlaylist, variant: Int) throws(HLSError) -> [Chosen] {
        let refusal = "a package of a steered presentation must find every track on every pathway to fail over (--no-steering packages from one pathway)"
        guard let variantId = multivariant.variants[variant].stableVariantId else {
            throw HLSError(.unsupported, "The presentation steers between pathways but its chosen variant has no STABLE-VARIANT-ID: \(refusal).")
        }
        let pathways = Set((multivariant.variants + multivariant.iFrameVariants).map { $0.pathwayId ?? "." }).sorted()
        return try chosen.map { item throws(HLSError) -> Chosen in
            var item = item
            let equivalent: PathwayEquivalent?
            switch item.key {
            case .variant: equivalent = .variant(stableId: variantId)
            case .iFrameVariant(let index): equivalent = multivariant.iFrameVariants[index].stableVariantId.map { .iFrameVariant(stableId: $0) }
            case .rendition(let index):
                let rendition = multivariant.renditions[index]
                equivalent = rendition.stableRenditionId.map { .rendition(stableId: $0, type: rendition.type, variant: variantId) }
            }
            guard let equivalent else {
                throw HLSError(.unsupported, "The presentation steers between pathways but its chosen \(item.role.rawValue) playlist has no stable ID (STABLE-VARIANT-ID or STABLE-RENDITION-ID): \(refusal).")
            }
            for pathway in pathways where equivalent.uri(on: pathway, in: multivariant) == nil {
                throw HLSError(.unsupported, "Pathway \"\(pathway)\" has no \(equivalent.description.dropFirst(4)): \(refusal).")
            }
            item.equivalent = equivalent
            return item
        }
    }

    /// Of the playable I-frame variants (lowest BANDWIDTH first), the one of `variant`'s
    /// RESOLUTION, else the last.
    private static func iFrameStream(_ playable: [Int], of variant: Variant, in multivariant: MultivariantPlaylist) -> Int? {
        playable.last { variant.resolution != nil && multivariant.iFrameVariants[$0].resolution == variant.resolution } ?? playable.last
    }
}
