/// An EXT-X-DEFINE (RFC 8216bis §4.4.2.3).
public struct VariableDefinition: Hashable, Sendable {
    /// How the variable gets its value.
    public enum Source: Hashable, Sendable {
        /// `NAME` with `VALUE`.
        case value(String)
        /// `IMPORT`: from the multivariant playlist this media playlist was loaded from.
        case imported
        /// `QUERYPARAM`: from the playlist URL's query parameter of the same name.
        case queryParameter
    }

    /// The variable's name.
    public let name: String
    /// Where the value comes from.
    public let source: Source
    /// The value after resolution (for `value`, the VALUE; for the others, what was found).
    public let resolvedValue: String
    /// Where the tag was.
    public let line: SourceLine
}
