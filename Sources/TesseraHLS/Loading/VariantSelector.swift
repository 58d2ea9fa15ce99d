#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Chooses the variant a single-file download takes, and refuses one whose audio comes from a
/// separate rendition (one file cannot hold two independently fetched streams).
enum VariantSelector {
    /// The chosen variant of `playlist` (fetched from `url`) for `preference` among those
    /// `capabilities` allow (the presentation selector's rules: pathway, refusals, tie-breaks).
    /// - Throws: `no-matching-variant`; `unsupported` when its audio is a separate rendition.
    static func choose(_ preference: VariantPreference, capabilities: PlaybackCapabilities = PlaybackCapabilities(),
                       in playlist: MultivariantPlaylist, url: URL) throws(HLSError) -> Variant {
        let source = URLRedaction.redact(url)
        let selection = PresentationSelector.select(SelectionPolicy(variant: preference, capabilities: capabilities), from: playlist)
        guard let index = selection.variant else {
            let refused = selection.refusals.first.map { "; variant \($0.variant): \($0.reason)" } ?? ""
            throw HLSError(.noMatchingVariant, "No variant of \(source) matches \(preference) (\(playlist.variants.count) variants, \(selection.refusals.count) not playable\(refused)).")
        }
        let chosen = playlist.variants[index]
        if let group = chosen.audio {
            let renditions = playlist.renditions.filter { $0.type == .audio && $0.groupId == group }
            // A rendition without a URI is carried in the variant's own stream (§4.4.6.1).
            guard renditions.isEmpty || renditions.contains(where: { $0.uri == nil }) else {
                throw HLSError(.unsupported, "The chosen variant of \(source) (line \(chosen.line.number)) takes its audio from a separate rendition (GROUP-ID \"\(group)\"); a file assembled from the variant's segments would have none — download to an .mp4, .m4v, .mov or .ts file to mux the rendition's audio with it.")
            }
        }
        return chosen
    }

    /// "320x180, 167.2 kb/s".
    static func describe(_ variant: Variant) -> String {
        let rate = FixedDecimal.format(Double(variant.bandwidth) / 1000, digits: 1) + " kb/s"
        guard let resolution = variant.resolution else { return rate }
        return "\(resolution.width)x\(resolution.height), \(rate)"
    }
}
