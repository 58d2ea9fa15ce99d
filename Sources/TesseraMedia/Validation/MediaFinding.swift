/// One problem a media validator found: a stable ID, a severity, where (byte offset, and the
/// packet index for MPEG-TS), and one sentence.
public struct MediaFinding: Sendable, Equatable, CustomStringConvertible {
    /// How bad it is. Ordered like `Diagnostic.Severity`: info < warning < error, so the
    /// strongest of a list is its `max()`.
    public enum Severity: String, Sendable, Comparable, CaseIterable {
        /// Worth knowing.
        case info
        /// The specification is broken but players cope.
        case warning
        /// The file will not play correctly.
        case error

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Stable ID, such as `ts-continuity`.
    public let id: String
    /// How bad it is.
    public let severity: Severity
    /// Byte offset from the start of the file.
    public let byteOffset: UInt64
    /// The 188-byte packet index, for MPEG-TS findings.
    public let packetIndex: UInt64?
    /// One sentence: what was found and what was expected.
    public let message: String

    /// Creates a finding.
    public init(id: String, severity: Severity, byteOffset: UInt64, packetIndex: UInt64?, message: String) {
        self.id = id
        self.severity = severity
        self.byteOffset = byteOffset
        self.packetIndex = packetIndex
        self.message = message
    }

    public var description: String {
        let place = packetIndex.map { "packet \($0), byte \(byteOffset)" } ?? "byte \(byteOffset)"
        return "\(severity.rawValue) \(id) at \(place): \(message)"
    }
}
