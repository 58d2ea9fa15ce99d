#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// What a recording follows: the media playlist's URL and, when the URL was a multivariant
/// playlist, it and the variant the selection chose (for the package's `master.m3u8`), with why.
struct RecordingSource: Sendable {
    let mediaURL: URL
    let multivariant: MultivariantPlaylist?
    let variant: Int?
    let provenance: String

    /// Loads `url` and chooses the variant to record when it is a multivariant playlist.
    /// - Throws: `fetch-failed`, `http-status`, `invalid-playlist`, `no-matching-variant`.
    static func load(_ url: URL, selection policy: SelectionPolicy, fetcher: ResourceFetcher) async throws(HLSError) -> RecordingSource {
        let (playlist, finalURL, _) = try await PlaylistLoader(fetcher: fetcher).load(url, what: "Playlist")
        guard case .multivariant(let multivariant) = playlist else {
            return RecordingSource(mediaURL: finalURL, multivariant: nil, variant: nil, provenance: "the media playlist given")
        }
        let selection = PresentationSelector.select(policy, from: multivariant)
        guard let index = selection.variant else {
            throw HLSError(.noMatchingVariant, "\(URLRedaction.redact(finalURL)): \(selection.reasons.last ?? "no variant qualifies").")
        }
        let variant = multivariant.variants[index]
        let mediaURL = try ResourceURL.resolve(variant.uri, against: finalURL, what: "The variant of line \(variant.line.number)")
        let provenance = "variant \(policy.variant): " + (selection.reasons.last ?? "the only one")
        return RecordingSource(mediaURL: mediaURL, multivariant: multivariant, variant: index, provenance: provenance)
    }
}
