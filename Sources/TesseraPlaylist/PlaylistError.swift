/// The one error type of `TesseraPlaylist`: a document rejected as a whole.
public struct PlaylistError: Error, Sendable, CustomStringConvertible {
    /// A stable, extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Stable text.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The first line is not `#EXTM3U` (RFC 8216bis §4.4.1.1).
        public static let notAPlaylist = Code("not-a-playlist")
        /// The bytes are not valid UTF-8 or hold a forbidden control character (§4.1).
        public static let invalidText = Code("invalid-text")
        /// A bound (bytes, line length, element count) was exceeded.
        public static let limitExceeded = Code("limit-exceeded")
        /// A tag's value is malformed.
        public static let malformedTag = Code("malformed-tag")
        /// A required tag or attribute is missing.
        public static let missingTag = Code("missing-tag")
        /// A segment URI has no EXTINF before it (§4.4.4.1).
        public static let missingDuration = Code("missing-extinf")
        /// A `{$name}` reference to a variable not defined before it (§4.3).
        public static let undefinedVariable = Code("undefined-variable")
        /// A variable defined twice (§4.4.2.3).
        public static let duplicateVariable = Code("duplicate-variable")
        /// An EXT-X-DEFINE that cannot be used (§4.4.2.3).
        public static let invalidVariableDefinition = Code("invalid-variable-definition")
        /// Both multivariant and media playlist tags (§4.4.4, §4.4.6).
        public static let mixedPlaylist = Code("mixed-playlist")
        /// A diagnostic the policy made fatal.
        public static let diagnosticEscalated = Code("diagnostic-escalated")
    }

    /// What went wrong.
    public let code: Code
    /// One sentence: what was found and what was expected.
    public let message: String
    /// The one-based line, when the problem has one.
    public let line: Int?

    init(_ code: Code, _ message: String, line: Int? = nil) {
        self.code = code
        self.message = message
        self.line = line
    }

    public var description: String {
        line.map { "line \($0): \(message)" } ?? message
    }
}
