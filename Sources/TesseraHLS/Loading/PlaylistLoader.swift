import Foundation
import TesseraHTTP
import TesseraPlaylist

/// Fetches and parses a media playlist, bounded in size.
public struct PlaylistLoader: Sendable {
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
        let parsed: Playlist
        do {
            parsed = try parser.parse(bytes)
        } catch {
            throw HLSError(.invalidPlaylist, "\(URLRedaction.redact(finalURL)) is not a usable playlist: \(error)", cause: error)
        }
        switch parsed {
        case .media(let playlist):
            return (playlist, finalURL)
        case .multivariant(let variants):
            throw HLSError(.multivariantPlaylist,
                           "\(URLRedaction.redact(finalURL)) is a multivariant playlist (\(variants.count) variants); give the URL of one media playlist.")
        }
    }
}
