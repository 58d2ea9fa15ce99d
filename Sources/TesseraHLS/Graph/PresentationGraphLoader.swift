#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Loads a whole presentation: the multivariant playlist, then every media playlist it
/// references — each URI once, `parallelism` at a time, each bounded in bytes (the parser's
/// limit) and time (the client's per-purpose limits) — through the caller's client. Children are
/// parsed, diagnosed and, unless `keepPlaylists`, released as they arrive: memory holds the
/// facts of each, not every playlist. A child that fails is a `playlist-unavailable` finding
/// (or, `strict`, the error).
public struct PresentationGraphLoader: Sendable {
    /// How a presentation is loaded.
    public struct Options: Sendable {
        /// Media playlists fetched at once (1…64; default 8).
        public var parallelism = 8
        /// A child that fails to load fails the whole load (default: it is a finding).
        public var strict = false
        /// Keep every parsed media playlist in the graph (default: facts only).
        public var keepPlaylists = false
        /// The most media playlists a presentation may reference (default 2,000).
        public var maximumPlaylists = 2_000
        /// The parser for every playlist (its byte and count limits bound each fetch).
        public var parser = PlaylistParser()
        /// Add the Apple HLS Authoring Specification guidance (`AuthoringGuidance`) to the
        /// diagnostics (default false).
        public var authoring = false

        /// The defaults.
        public init() {}
    }

    /// How it is loaded.
    public let options: Options
    private let client: HLSClient

    /// A loader through `client` (its transport, policies, per-purpose limits and events).
    public init(client: HLSClient, options: Options = Options()) {
        self.client = client
        self.options = options
    }

    /// The whole presentation at `url` (http, https or file).
    /// - Throws: as `loadRoot` and `loadChildren`.
    public func load(_ url: URL) async throws(HLSError) -> PresentationGraph {
        try await loadChildren(of: try await loadRoot(url))
    }

    /// The multivariant playlist at `url` (http, https, or a file whose children resolve beside it).
    /// - Throws: `fetch-failed`, `http-status`, `budget-exceeded`, `invalid-playlist`;
    ///   `unsupported` when it is a media playlist.
    public func loadRoot(_ url: URL) async throws(HLSError) -> PresentationRoot {
        let (bytes, finalURL) = try await PlaylistLoader(client: client, parser: options.parser)
            .bytes(url, purpose: .multivariantPlaylist, what: "Playlist", files: true)
        return try root(bytes, url: url, baseURL: finalURL)
    }

    /// The multivariant playlist in `bytes`, its children resolved against `baseURL` (a file's
    /// folder or the `--base` a user gives).
    /// - Throws: `invalid-playlist`; `unsupported` when it is a media playlist.
    public func root(_ bytes: [UInt8], url: URL, baseURL: URL) throws(HLSError) -> PresentationRoot {
        let parsed = try PlaylistLoader(client: client, parser: options.parser).parse(bytes, at: baseURL, named: url, checks: .diagnosed)
        guard case .multivariant(let multivariant) = parsed.playlist else {
            throw HLSError(.unsupported, "\(URLRedaction.redact(url)) is a media playlist; a presentation graph starts from a multivariant playlist (inspect reads one media playlist).")
        }
        let root = PresentationRoot(parsed: parsed, multivariant: multivariant, url: url, baseURL: baseURL) { uri, line in
            Result { () throws(HLSError) -> URL in try Self.resolve(uri, against: baseURL, line: line) }
        }
        guard root.children.count <= options.maximumPlaylists else {
            throw HLSError(.budgetExceeded, "\(URLRedaction.redact(url)) references \(root.children.count) media playlists, over the limit of \(options.maximumPlaylists).")
        }
        return root
    }

    /// Loads the children of `root` and checks them against each other. `each`, when given, sees
    /// every child in order as it completes, with its parsed playlist (nil when it failed), before
    /// the playlist is released; without it (and without `keepPlaylists`) each playlist is
    /// released where it was parsed, in parallel.
    /// - Throws: `cancelled`; with `strict`, the first child's failure; `each`'s error.
    public func loadChildren(of root: PresentationRoot,
                             each: ((Int, GraphPlaylist, ParsedPlaylist?) throws(HLSError) -> Void)? = nil)
        async throws(HLSError) -> PresentationGraph {
        let options = self.options
        let handsOver = each != nil || options.keepPlaylists
        let variables = root.parsed.variables
        let sessionKeyURIs = Set(root.multivariant.sessionKeys.compactMap(\.uri))
        var playlists: [GraphPlaylist] = []
        var childDiagnostics: [Diagnostic] = []
        playlists.reserveCapacity(root.children.count)
        try await client.withFetcher { fetcher throws(HLSError) in
            try await OrderedTransfer.run(
                // Each child costs one slot (its bytes are bounded by the parser's limit): the window
                // is `parallelism` children from the first one on.
                ListInput(root.children), parallelism: min(max(options.parallelism, 1), 64), size: { _ in 1 },
                work: { child throws(HLSError) -> ChildLoad in
                    let load = try await Self.load(child, fetcher: fetcher, options: options, variables: variables, sessionKeyURIs: sessionKeyURIs)
                    return handsOver ? load : load.released()
                },
                consume: { load throws(HLSError) in
                    let index = playlists.count
                    let graphPlaylist = load.playlist(keeping: options.keepPlaylists)
                    childDiagnostics += load.diagnostics.map { $0.found(in: .index(index)) }
                    if case .failed(let error) = graphPlaylist.outcome {
                        childDiagnostics.append(Self.unavailable(error, playlist: graphPlaylist, index: index))
                    }
                    playlists.append(graphPlaylist)
                    try each?(index, graphPlaylist, load.parsed)
                })
        }
        let cross = PresentationRules.check(root.multivariant, playlists)
        let graph = PresentationGraph(multivariant: root.multivariant, url: root.url, finalURL: root.baseURL, variables: variables,
                                      playlists: playlists, diagnostics: root.parsed.diagnostics + childDiagnostics + cross)
        guard options.authoring else { return graph }
        return PresentationGraph(multivariant: root.multivariant, url: root.url, finalURL: root.baseURL, variables: variables,
                                 playlists: playlists, diagnostics: graph.diagnostics + AuthoringGuidance.check(graph))
    }

    /// One child's load: what it gave, before it becomes a `GraphPlaylist`.
    struct ChildLoad: Sendable {
        let child: PresentationRoot.Child
        let finalURL: URL?
        let parsed: ParsedPlaylist?
        let media: MediaPlaylist?
        let diagnostics: [Diagnostic]
        let outcome: GraphPlaylist.Outcome

        /// This load without its playlist (freed by the task that parsed it).
        func released() -> ChildLoad {
            ChildLoad(child: child, finalURL: finalURL, parsed: nil, media: nil, diagnostics: diagnostics, outcome: outcome)
        }

        func playlist(keeping: Bool) -> GraphPlaylist {
            // A URI that did not resolve has no URL; its error is the outcome (`failed`).
            GraphPlaylist(uri: child.uri, url: try? child.url.get(), references: child.references, finalURL: finalURL,
                          outcome: outcome, playlist: keeping ? media : nil)
        }
    }

    private static func load(_ child: PresentationRoot.Child, fetcher: ResourceFetcher, options: Options,
                             variables: [String: String], sessionKeyURIs: Set<String>) async throws(HLSError) -> ChildLoad {
        func failed(_ error: HLSError, _ finalURL: URL? = nil) throws(HLSError) -> ChildLoad {
            if options.strict || error.code == .cancelled { throw error }
            return ChildLoad(child: child, finalURL: finalURL, parsed: nil, media: nil, diagnostics: [], outcome: .failed(error))
        }
        let url: URL
        switch child.url {
        case .success(let resolved): url = resolved
        case .failure(let error): return try failed(error)
        }
        let loader = PlaylistLoader(fetcher: fetcher, parser: options.parser)
        let bytes: [UInt8]
        let finalURL: URL
        do { (bytes, finalURL) = try await loader.bytes(url, purpose: .mediaPlaylist, what: "Playlist", files: true) } catch {
            return try failed(error)
        }
        let parsed: ParsedPlaylist
        do { parsed = try loader.parse(bytes, at: finalURL, importing: variables, checks: .diagnosed) } catch {
            return try failed(error, finalURL)
        }
        guard case .media(let media) = parsed.playlist else {
            return try failed(HLSError(.multivariantPlaylist, "\(URLRedaction.redact(finalURL)) is a multivariant playlist where a media playlist must be."), finalURL)
        }
        return ChildLoad(child: child, finalURL: finalURL, parsed: parsed, media: media, diagnostics: parsed.diagnostics,
                         outcome: .loaded(MediaPlaylistFacts(media, sessionKeyURIs: sessionKeyURIs)))
    }

    /// `uri` against `base`: http(s) as every fetch (no other scheme, no HTTPS downgrade); under a
    /// file base, a file beneath the base's folder or an http(s) URL.
    static func resolve(_ uri: String, against base: URL, line: Int) throws(HLSError) -> URL {
        let what = "Media playlist (line \(line))"
        guard base.isFileURL else { return try ResourceURL.resolve(uri, against: base, what: what) }
        guard let url = URL(string: uri, relativeTo: base)?.absoluteURL else {
            throw HLSError(.invalidPlaylist, "\(what) URI \"\(uri.prefix { $0 != "?" }.prefix(80))\" is not a valid URI.")
        }
        guard url.isFileURL else { return try ResourceURL.resolve(uri, against: base, what: what) }
        let folder = base.deletingLastPathComponent().standardizedFileURL.path
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            throw HLSError(.unsupported, "\(what) \(path) is outside the folder of the multivariant playlist; refused.")
        }
        return url
    }

    private static func unavailable(_ error: HLSError, playlist: GraphPlaylist, index: Int) -> Diagnostic {
        let id: DiagnosticID = error.code == .multivariantPlaylist ? .notMediaPlaylist : .playlistUnavailable
        let line = playlist.references[0].line
        return PresentationRuleContext.diagnostic(id, at: index, "The \(playlist.role) playlist of line \(line) is unavailable: \(error.message)",
                                                  related: [Diagnostic.Place(source: nil, line: line)])
    }
}
