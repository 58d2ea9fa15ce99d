import TesseraPlaylist
import TesseraSupport

/// What the cross-playlist rules read and where they write: the multivariant playlist, the
/// children that loaded (with their index in the graph) and the diagnostics found.
struct PresentationRuleContext {
    /// A child that loaded.
    struct Child {
        let index: Int
        let playlist: GraphPlaylist
        let facts: MediaPlaylistFacts

        /// "variant playlist 3 (v3/index.m3u8)", the URI redacted.
        var name: String { "\(playlist.role) playlist \(index) (\(URLRedaction.redact(uri: playlist.uri)))" }
        /// This child as the other place of a finding.
        var place: Diagnostic.Place { Diagnostic.Place(source: .index(index), line: nil) }
        func place(line: Int?) -> Diagnostic.Place { Diagnostic.Place(source: .index(index), line: line) }
    }

    let multivariant: MultivariantPlaylist
    let children: [Child]
    private(set) var diagnostics: [Diagnostic] = []

    init(multivariant: MultivariantPlaylist, playlists: [GraphPlaylist]) {
        self.multivariant = multivariant
        children = playlists.enumerated().compactMap { index, playlist in
            playlist.facts.map { Child(index: index, playlist: playlist, facts: $0) }
        }
    }

    /// The catalogued severity and section of `id`.
    private static let catalogue: [DiagnosticID: DiagnosticCatalog.Entry] =
        Dictionary((PresentationDiagnosticCatalog.entries + AuthoringDiagnosticCatalog.entries).map { ($0.id, $0) },
                   uniquingKeysWith: { first, _ in first })

    /// Adds a finding in child `at` (nil: the multivariant playlist) at `line`, with the
    /// catalogued severity and section.
    mutating func add(_ id: DiagnosticID, at child: Int?, line: Int? = nil, _ message: String, related: [Diagnostic.Place] = []) {
        diagnostics.append(Self.diagnostic(id, at: child, line: line, message, related: related))
    }

    /// A finding of `id` with its catalogued severity and section (every ID the graph reports is
    /// catalogued; an uncatalogued one is a programming error).
    static func diagnostic(_ id: DiagnosticID, at child: Int?, line: Int? = nil, _ message: String,
                           related: [Diagnostic.Place] = []) -> Diagnostic {
        guard let entry = catalogue[id] else { preconditionFailure("\(id) is not catalogued") }
        return Diagnostic(id, entry.severity, line: line, section: entry.section, message, source: child.map { .index($0) }, related: related)
    }

    /// The first child whose `value` differs from the first child's, with that first child.
    func disagreement<T: Equatable>(among children: [Child], _ value: (Child) -> T) -> (first: Child, other: Child)? {
        guard let first = children.first else { return nil }
        let expected = value(first)
        guard let other = children.first(where: { value($0) != expected }) else { return nil }
        return (first, other)
    }
}
