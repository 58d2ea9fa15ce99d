import Foundation
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Fetches and parses playlists, bounded in size; from a multivariant playlist it follows the
/// variant a `VariantPreference` chooses.
public struct PlaylistLoader: Sendable {
    /// A media playlist ready to plan.
    public struct Loaded: Sendable {
        /// The media playlist.
        public let playlist: MediaPlaylist
        /// The URL that answered (relative URIs resolve against it).
        public let url: URL
        /// The chosen variant ("320x180, 167.2 kb/s"), when a multivariant playlist was given.
        public let variant: String?
        /// The chosen variant's BANDWIDTH, bits per second.
        public let bandwidth: UInt64?
    }

    /// Problems that would make a download fetch the wrong bytes or skip media, so they stop it:
    /// a segment dropped for a missing EXTINF, an unreadable key or map, a byte range that cannot
    /// be placed, an unreadable EXTINF, a missing target duration.
    static func breaksDownload(_ id: DiagnosticID) -> Bool {
        [.segmentWithoutDuration, .malformedAttributeList, .missingAttribute, .unknownEnumeratedValue,
         .byteRangeWithoutPrevious, .malformedTagValue, .missingTargetDuration, .malformedAttribute].contains(id)
    }

    private let fetcher: ResourceFetcher
    private let parser: PlaylistParser

    /// A loader over `transport` (default retry policy).
    public init(transport: any HTTPTransport, parser: PlaylistParser = PlaylistParser()) {
        self.init(fetcher: ResourceFetcher(transport: transport), parser: parser)
    }

    init(fetcher: ResourceFetcher, parser: PlaylistParser = PlaylistParser()) {
        self.fetcher = fetcher
        self.parser = parser
    }

    /// The media playlist at `url`.
    /// - Throws: `fetch-failed`, `http-status`, `invalid-playlist`, `multivariant-playlist`.
    public func loadMediaPlaylist(_ url: URL) async throws(HLSError) -> (playlist: MediaPlaylist, url: URL) {
        let (playlist, finalURL) = try await load(url, what: "Playlist")
        switch playlist {
        case .media(let media):
            return (media, finalURL)
        case .multivariant(let multivariant):
            throw HLSError(.multivariantPlaylist,
                           "\(URLRedaction.redact(finalURL)) is a multivariant playlist (\(multivariant.variants.count) variants); give the URL of one media playlist.")
        }
    }

    /// The media playlist at `url`, or the one of the variant `preference` chooses when `url`
    /// is a multivariant playlist.
    /// - Throws: as `loadMediaPlaylist`, plus `no-matching-variant` and `unsupported` (separate
    ///   audio rendition).
    public func loadMediaPlaylist(_ url: URL, choosing preference: VariantPreference) async throws(HLSError) -> Loaded {
        let (playlist, finalURL) = try await load(url, what: "Playlist")
        switch playlist {
        case .media(let media):
            return Loaded(playlist: media, url: finalURL, variant: nil, bandwidth: nil)
        case .multivariant(let multivariant):
            let variant = try VariantSelector.choose(preference, in: multivariant, url: finalURL)
            let variantURL = try ResourceURL.resolve(variant.uri, against: finalURL, what: "Variant (line \(variant.line.number))")
            let (media, mediaURL) = try await loadMediaPlaylist(variantURL)
            return Loaded(playlist: media, url: mediaURL, variant: VariantSelector.describe(variant), bandwidth: variant.bandwidth)
        }
    }

    private func load(_ url: URL, what: String) async throws(HLSError) -> (Playlist, URL) {
        let (bytes, finalURL) = try await fetcher.fetch(url, purpose: .mediaPlaylist, what: what, limit: parser.limits.maximumBytes)
        let parsed: ParsedPlaylist
        do {
            parsed = try parser.parse(bytes, context: ParseContext(playlistURL: finalURL))
        } catch {
            throw HLSError(.invalidPlaylist, "\(URLRedaction.redact(finalURL)) is not a usable playlist: \(error)", cause: error)
        }
        if let problem = parsed.diagnostics.first(where: { $0.severity == .error && Self.breaksDownload($0.id) }) {
            throw HLSError(.invalidPlaylist, "\(URLRedaction.redact(finalURL)) is not a usable playlist: \(problem)")
        }
        return (parsed.playlist, finalURL)
    }
}
