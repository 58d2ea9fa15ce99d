/// Something the health analyzer found about a live stream: a stable ID, a severity, one
/// sentence, and when (on the caller's clock, since the stream was tuned in to).
public struct LiveFinding: Hashable, Sendable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        case info, warning, error

        private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// The kinds of finding (stable IDs; docs/DIAGNOSTICS.md lists them).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Live health
        /// error: the live edge went back: a snapshot's last media sequence (or part) is behind the one before.
        public static let edgeRegression = Code("live-edge-regression")
        /// warning: no new segment for more than 1.5 target durations.
        public static let stagnantSegments = Code("live-stagnant-segments")
        /// warning: no new part for more than one part target.
        public static let stagnantParts = Code("live-stagnant-parts")
        /// warning: HOLD-BACK under 3 target durations or PART-HOLD-BACK under 2 part targets (§4.4.3.8).
        public static let holdBack = Code("live-hold-back")
        /// warning: two delta updates in a row could not be merged.
        public static let deltaRecovery = Code("live-delta-recovery")
        /// warning: three or more pathway switches within ten target durations.
        public static let pathwayInstability = Code("live-pathway-instability")
        /// warning: the playlist response was cached longer than one target duration (Age), or may be (max-age over half a target duration).
        public static let staleResponse = Code("live-stale-response")
        /// warning: the window holds less than three target durations: one failed reload can lose segments.
        public static let windowRisk = Code("live-window-risk")

        /// Every code.
        public static let all: [Code] = [.edgeRegression, .stagnantSegments, .stagnantParts, .holdBack, .deltaRecovery,
                                         .pathwayInstability, .staleResponse, .windowRisk]
    }

    /// What kind.
    public let code: Code
    /// How bad.
    public let severity: Severity
    /// One sentence.
    public let message: String
    /// When, since the stream was tuned in to.
    public let at: Duration

    /// Creates a finding.
    public init(_ code: Code, _ severity: Severity, _ message: String, at: Duration) {
        self.code = code
        self.severity = severity
        self.message = message
        self.at = at
    }

    public var description: String { "\(severity) \(code): \(message)" }
}
