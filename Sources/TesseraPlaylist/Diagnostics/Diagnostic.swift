#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// A problem found in a playlist: a stable ID, a severity, where, the spec section it breaks,
/// and one sentence saying what was found and what was expected. Values that may carry secrets
/// (query strings, key URIs) are redacted in messages.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Informational.
        case info
        /// The spec's SHOULD is broken; players cope.
        case warning
        /// The spec's MUST is broken.
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
        public var description: String {
            switch self {
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// Which playlist of a presentation a diagnostic was found in.
    public enum Source: Hashable, Sendable, CustomStringConvertible {
        /// The playlist fetched from this URL, in redacted form (no user-info, query or fragment).
        case playlist(redactedURL: String)
        /// The playlist at this position of a presentation (the caller says what the positions are).
        case index(Int)

        /// The source naming `url`, redacted.
        public static func playlist(_ url: URL) -> Source { .playlist(redactedURL: URLRedaction.redact(url)) }

        public var description: String {
            switch self {
            case .playlist(let url): url
            case .index(let index): "playlist \(index)"
            }
        }
    }

    /// Another place a finding involves (a cross-playlist diagnostic names the other playlists).
    public struct Place: Hashable, Sendable {
        /// The playlist; nil for the root of what was checked (the multivariant playlist of a
        /// presentation).
        public let source: Source?
        /// The one-based line there, when there is one.
        public let line: Int?

        /// Creates a place.
        public init(source: Source?, line: Int?) {
            self.source = source
            self.line = line
        }
    }

    /// The stable identifier (catalogued in docs/DIAGNOSTICS.md).
    public let id: DiagnosticID
    /// Its severity.
    public let severity: Severity
    /// The one-based line, when the problem has one.
    public let line: Int?
    /// The section of draft-pantos-hls-rfc8216bis it refers to, e.g. "4.2".
    public let section: String
    /// One sentence.
    public let message: String
    /// The playlist it was found in, when it was checked as part of several; nil for a
    /// playlist checked on its own.
    public let source: Source?
    /// The other places a cross-playlist finding involves (empty for a single-playlist one).
    public let related: [Place]

    /// Creates a diagnostic.
    public init(_ id: DiagnosticID, _ severity: Severity, line: Int?, section: String, _ message: String,
                source: Source? = nil, related: [Place] = []) {
        self.id = id
        self.severity = severity
        self.line = line
        self.section = section
        self.message = message
        self.source = source
        self.related = related
    }

    /// This diagnostic, found in `source`.
    public func found(in source: Source) -> Diagnostic {
        Diagnostic(id, severity, line: line, section: section, message, source: source, related: related)
    }

    public var description: String {
        let place = [source.map { "in \($0)" }, line.map { "at line \($0)" }].compactMap { $0 }.joined(separator: " ")
        return "\(severity) \(id)\(place.isEmpty ? "" : " " + place) (§\(section)): \(message)"
    }
}
