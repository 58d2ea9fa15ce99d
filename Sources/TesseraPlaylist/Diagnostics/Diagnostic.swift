/// A problem found in a playlist: a stable ID, a severity, where, the spec section it breaks,
/// and one sentence saying what was found and what was expected. Values that may carry secrets
/// (query strings, key URIs) are redacted in messages.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
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

    /// Creates a diagnostic.
    public init(_ id: DiagnosticID, _ severity: Severity, line: Int?, section: String, _ message: String) {
        self.id = id
        self.severity = severity
        self.line = line
        self.section = section
        self.message = message
    }

    public var description: String {
        "\(severity) \(id)\(line.map { " at line \($0)" } ?? "") (§\(section)): \(message)"
    }
}
