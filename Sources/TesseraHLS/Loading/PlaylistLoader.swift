#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// The one playlist reader: every playlist the house loads — a job's entry and media playlists,
/// each live reload, a presentation graph's children, a pathway's playlist under Content
/// Steering — is fetched and parsed here, bounded by the parser's byte limit, with the
/// multivariant playlist's variables importable (EXT-X-DEFINE IMPORT) and held to the same
/// checks (`PlaylistChecks`). From a multivariant playlist it follows the variant a
/// `VariantPreference` chooses.
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
        /// The multivariant playlist it was chosen from, and the URL that answered for it.
        public let multivariant: (playlist: MultivariantPlaylist, url: URL, variant: Variant)?
        /// The variables the multivariant playlist declared (what its media playlists may import).
        public var variables: [String: String] = [:]
    }

    /// Problems that would make a download fetch the wrong bytes or skip media, so they stop it:
    /// a segment dropped for a missing EXTINF, an unreadable key or map, a byte range that cannot
    /// be placed, an unreadable EXTINF, a missing target duration.
    static func breaksDownload(_ id: DiagnosticID) -> Bool {
        [.segmentWithoutDuration, .malformedAttributeList, .missingAttribute, .unknownEnumeratedValue,
         .byteRangeWithoutPrevious, .malformedTagValue, .missingTargetDuration, .malformedAttribute].contains(id)
    }

    private let fetcher: ResourceFetcher?
    private let parser: PlaylistParser

    private let client: HLSClient?
    /// Playlists another plan of the same decision read already (none kept without one).
    private let memo: PlaylistMemo?

    /// A loader over `transport` with the default HLS policies.
    public init(transport: any HTTPTransport, parser: PlaylistParser = PlaylistParser()) {
        self.init(client: HLSClient(transport: transport), parser: parser)
    }

    /// A loader through the caller's client (its policies, limits, clock and event observer).
    public init(client: HLSClient, parser: PlaylistParser = PlaylistParser()) {
        self.client = client
        fetcher = nil
        self.parser = parser
        memo = nil
    }

    /// A loader through `fetcher`; with `memo`, playlists it holds are not fetched again, and
    /// those fetched are added to it.
    package init(fetcher: ResourceFetcher, parser: PlaylistParser = PlaylistParser(), memo: PlaylistMemo? = nil) {
        self.fetcher = fetcher
        client = nil
        self.parser = parser
        self.memo = memo
    }

    /// The bytes of the playlist at `url` (at most the parser's byte limit) and the URL that
    /// answered, through the client's pipeline: redirects followed safely, retries, events.
    /// - Throws: `fetch-failed`, `http-status`, `budget-exceeded`, `cancelled`.
    public func fetchPlaylist(_ url: URL, purpose: RequestPurpose = .mediaPlaylist) async throws(HLSError) -> (bytes: [UInt8], url: URL) {
        try await bytes(url, purpose: purpose, what: "Playlist")
    }

    /// Runs `work` with this loader's fetcher (the client's, events forwarded, when it has one).
    private func withFetcher<T: Sendable>(_ work: (ResourceFetcher) async throws(HLSError) -> T) async throws(HLSError) -> T {
        if let fetcher { return try await work(fetcher) }
        guard let client else { preconditionFailure("a loader has a fetcher or a client") }
        return try await client.withFetcher(work)
    }

    /// The media playlist at `url`; `variables` are the multivariant playlist's, for its
    /// EXT-X-DEFINE IMPORT tags.
    /// - Throws: `fetch-failed`, `http-status`, `invalid-playlist`, `multivariant-playlist`.
    public func loadMediaPlaylist(_ url: URL, importing variables: [String: String] = [:]) async throws(HLSError) -> (playlist: MediaPlaylist, url: URL) {
        let (playlist, finalURL, _) = try await load(url, what: "Playlist", importing: variables)
        switch playlist {
        case .media(let media):
            return (media, finalURL)
        case .multivariant(let multivariant):
            throw HLSError(.multivariantPlaylist,
                           "\(URLRedaction.redact(finalURL)) is a multivariant playlist (\(multivariant.variants.count) variants); give the URL of one media playlist.")
        }
    }

    /// The media playlist at `url`, or the one of the variant `preference` chooses among those
    /// `capabilities` allow when `url` is a multivariant playlist.
    /// - Throws: as `loadMediaPlaylist`, plus `no-matching-variant` and `unsupported` (separate
    ///   audio rendition).
    public func loadMediaPlaylist(_ url: URL, choosing preference: VariantPreference,
                                  capabilities: PlaybackCapabilities = PlaybackCapabilities()) async throws(HLSError) -> Loaded {
        try await loadMediaPlaylist(url, choosing: preference, capabilities: capabilities, onMultivariant: { _, _ in })
    }

    /// As `loadMediaPlaylist(_:choosing:capabilities:)`; `onMultivariant` sees the multivariant
    /// playlist (and the URL that answered) before the variant's playlist is fetched.
    func loadMediaPlaylist(_ url: URL, choosing preference: VariantPreference, capabilities: PlaybackCapabilities,
                           onMultivariant: (MultivariantPlaylist, URL) -> Void) async throws(HLSError) -> Loaded {
        let (playlist, finalURL, variables) = try await load(url, what: "Playlist")
        switch playlist {
        case .media(let media):
            return Loaded(playlist: media, url: finalURL, variant: nil, bandwidth: nil, multivariant: nil)
        case .multivariant(let multivariant):
            onMultivariant(multivariant, finalURL)
            let variant = try VariantSelector.choose(preference, capabilities: capabilities, in: multivariant, url: finalURL)
            let variantURL = try ResourceURL.resolve(variant.uri, against: finalURL, what: "Variant (line \(variant.line.number))")
            let (media, mediaURL) = try await loadMediaPlaylist(variantURL, importing: variables)
            return Loaded(playlist: media, url: mediaURL, variant: VariantSelector.describe(variant), bandwidth: variant.bandwidth,
                          multivariant: (multivariant, finalURL, variant), variables: variables)
        }
    }

    /// The playlist at `url`, the URL that answered and the variables it declared.
    package func load(_ url: URL, what: String, importing variables: [String: String] = [:]) async throws(HLSError) -> (Playlist, URL, [String: String]) {
        let read = try await read(url, purpose: .mediaPlaylist, what: what, importing: variables)
        return (read.parsed.playlist, read.url, read.parsed.variables)
    }

    /// The playlist at `url` (a regular file too, with `files`: a presentation read from disk),
    /// parsed with `variables` importable, held to `checks`; the URL that answered.
    /// - Throws: `fetch-failed`, `http-status`, `budget-exceeded`, `invalid-playlist`, `cancelled`.
    package func read(_ url: URL, purpose: RequestPurpose, what: String, importing variables: [String: String] = [:],
                      checks: PlaylistChecks = .usable, files: Bool = false) async throws(HLSError) -> PlaylistRead {
        let (bytes, finalURL) = try await bytes(url, purpose: purpose, what: what, files: files)
        return PlaylistRead(parsed: try parse(bytes, at: finalURL, importing: variables, checks: checks), url: finalURL)
    }

    /// The bytes of the playlist (or asset list, or session key) at `url` — at most `limit`, by
    /// default the parser's byte limit; a regular file with `files` — and the URL that answered.
    /// - Throws: `fetch-failed`, `http-status`, `budget-exceeded`, `cancelled`.
    package func bytes(_ url: URL, purpose: RequestPurpose, what: String, limit: Int? = nil,
                       files: Bool = false) async throws(HLSError) -> (bytes: [UInt8], url: URL) {
        let limit = limit ?? parser.limits.maximumBytes
        guard files, url.isFileURL else {
            let memo = PlaylistMemo.keeps(purpose) ? memo : nil
            if let kept = memo?.recalled(url), kept.bytes.count <= limit { return kept }
            let answer = try await withFetcher { fetcher throws(HLSError) in try await fetcher.fetch(url, purpose: purpose, what: what, limit: limit) }
            memo?.keep(answer.bytes, for: url, answeredBy: answer.url)
            return answer
        }
        do { return (try FileDescriptorIO.readRegularFile(url.path, limit: limit), url) } catch {
            throw HLSError(.fetchFailed, "\(what) could not be read: \(error.message)", cause: error)
        }
    }

    /// The response to `request` (a live playlist's first load, whose headers its caller reads).
    /// - Throws: `fetch-failed`, `http-status`, `budget-exceeded`, `cancelled`.
    package func fetch(_ request: HTTPRequest, what: String) async throws(HLSError) -> (head: HTTPResponseHead, body: [UInt8]) {
        try await withFetcher { fetcher throws(HLSError) in try await fetcher.fetch(request, what: what, limit: parser.limits.maximumBytes) }
    }

    /// The answer to `request` whatever its status (a live reload's, whose caller decides what a
    /// refusal means), its body bounded by the parser's byte limit; `parse` reads it.
    /// - Throws: `fetch-failed`, `budget-exceeded`, `cancelled`.
    package func answer(_ request: HTTPRequest, what: String) async throws(HLSError) -> (head: HTTPResponseHead, body: [UInt8]) {
        try await withFetcher { fetcher throws(HLSError) in try await fetcher.answer(request, what: what, limit: parser.limits.maximumBytes) }
    }

    /// The playlist in `bytes` as found at `url` (relative URIs resolve against it; messages name
    /// `named`, else `url`), with `variables` importable, held to `checks`.
    /// - Throws: `invalid-playlist`.
    package func parse(_ bytes: [UInt8], at url: URL, named: URL? = nil, importing variables: [String: String] = [:],
                       checks: PlaylistChecks = .usable) throws(HLSError) -> ParsedPlaylist {
        let parsed: ParsedPlaylist
        do {
            parsed = try parser.parse(bytes, context: ParseContext(playlistURL: url, importableVariables: variables))
        } catch {
            throw HLSError(.invalidPlaylist, "\(URLRedaction.redact(named ?? url)) is not a usable playlist: \(error)", cause: error)
        }
        if checks == .usable, let problem = parsed.diagnostics.first(where: { $0.severity == .error && Self.breaksDownload($0.id) }) {
            throw HLSError(.invalidPlaylist, "\(URLRedaction.redact(named ?? url)) is not a usable playlist: \(problem)")
        }
        return parsed
    }
}
