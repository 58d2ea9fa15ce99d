#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// What a recording follows: the media playlist's URL and, when the URL was a multivariant
/// playlist, it, the variant the selection chose and the audio and subtitle renditions with
/// their own playlists it chose from the variant's groups (for the package's `master.m3u8`),
/// each with why.
struct RecordingSource: Sendable {
    /// A rendition recorded beside the variant, aligned with it.
    struct Rendition: Sendable {
        /// Its track ID and folder (`audio-1`, `subtitles-1`).
        let id: String
        let role: PackageTrack.Role
        /// Its index among the multivariant playlist's renditions.
        let index: Int
        /// Its media playlist.
        let url: URL
        let provenance: String
        /// How the reloader finds it (again, and on another pathway).
        let choice: LiveReloader.RenditionChoice
    }

    let mediaURL: URL
    let multivariant: MultivariantPlaylist?
    let variant: Int?
    let provenance: String
    var renditions: [Rendition] = []
    /// The URL that answered for the multivariant playlist, and the pathway the selection was made on.
    var multivariantURL: URL?
    var pathway = "."
    /// The variables the multivariant playlist declared.
    var variables: [String: String] = [:]

    /// Loads `url` and chooses the variant and renditions to record when it is a multivariant
    /// playlist.
    /// - Throws: `fetch-failed`, `http-status`, `invalid-playlist`, `no-matching-variant`.
    static func load(_ url: URL, selection policy: SelectionPolicy, loader: PlaylistLoader) async throws(HLSError) -> RecordingSource {
        let (playlist, finalURL, variables) = try await loader.load(url, what: "Playlist")
        guard case .multivariant(let multivariant) = playlist else {
            return RecordingSource(mediaURL: finalURL, multivariant: nil, variant: nil, provenance: "the media playlist given")
        }
        let selection = PresentationSelector.select(policy, from: multivariant)
        guard let index = selection.variant else {
            throw HLSError(.noMatchingVariant, "\(URLRedaction.redact(finalURL)): \(selection.reasons.last ?? "no variant qualifies").")
        }
        let chosen = try PackageSelection.sources(of: selection, in: multivariant, at: finalURL, policy: policy, iFrames: false)
        let ids = PackageTrack.ids(chosen.map(\.role))
        var renditions: [Rendition] = []
        for (item, id) in zip(chosen, ids) {
            guard case .rendition(let renditionIndex) = item.key else { continue }
            let rendition = multivariant.renditions[renditionIndex]
            renditions.append(Rendition(id: id, role: item.role, index: renditionIndex, url: item.url, provenance: item.provenance,
                                        choice: LiveReloader.RenditionChoice(type: rendition.type, name: rendition.name)))
        }
        return RecordingSource(mediaURL: chosen[0].url, multivariant: multivariant, variant: index, provenance: chosen[0].provenance,
                               renditions: renditions, multivariantURL: finalURL, pathway: selection.pathway, variables: variables)
    }
}
