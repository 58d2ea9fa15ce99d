import Foundation
import TesseraHTTP
import TesseraPlaylist

/// Fetches and parses a media playlist, bounded in size.
public struct PlaylistLoader: Sendable {
    /// Problems that would make a download fetch the wrong bytes or skip media, so they stop it:
    /// a segment dropped for a missing EXTINF, an unreadable key or map, a byte range that cannot
    /// be placed, an unreadable EXTINF, a missing target duration.
    static func breaksDownload(_ id: DiagnosticID) -> Bool {
        [.segmentWithoutDuration, .malformedAttributeList, .missingAttribute, .unknownEnumeratedValue,
         .byteRangeWithoutPrevious, .malformedTagValue, .missingTargetDuration, .malformedAttribute].contains(id)
    }

    private let fetcher: ResourceFetcher
    private let parser: PlaylistParser

    /// A loader over `transport`.
    public init(transport: any HTTPTransport, parser: PlaylistParser = PlaylistParser()) {
        fetcher = ResourceFetcher(transport: transport)
        self.parser = parser
    }

    /// The media playlist at `url`, and the URL that answered (relative URIs resolve against it).
    /// - Throws: `fetch-failed`, `http-status`, `invalid-playlist`, `multivariant-playlist`.
    public func loadMediaPlaylist(_ url: URL) async throws(HLSError) -> (playlist: MediaPlaylist, url: URL) {
        let (bytes, finalURL) = try await fetcher.fetch(url, purpose: .mediaPlaylist, what: "Playlist",
                                                        limit: parser.limits.maximumBytes)
        let parsed: ParsedPlaylist
        do {
            parsed = try parser.parse(bytes, context: ParseContext(playlistURL: finalURL))
        } catch {
            throw HLSError(.invalidPlaylist, "\(URLRedaction.redact(finalURL)) is not a usable playlist: \(error)", cause: error)
        }
        switch parsed.playlist {
        case .media(let playlist):
            if let problem = parsed.diagnostics.first(where: { $0.severity == .error && Self.breaksDownload($0.id) }) {
                throw HLSError(.invalidPlaylist, "\(URLRedaction.redact(finalURL)) is not a usable playlist: \(problem)")
            }
            return (playlist, finalURL)
        case .multivariant(let multivariant):
            throw HLSError(.multivariantPlaylist,
                           "\(URLRedaction.redact(finalURL)) is a multivariant playlist (\(multivariant.variants.count) variants); give the URL of one media playlist.")
        }
    }
}
