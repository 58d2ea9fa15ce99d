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
    public var name: String
    /// Where the value comes from.
    public var source: Source
    /// The value after resolution (for `value`, the VALUE; for the others, what was found).
    public var resolvedValue: String
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(name: String,
                source: Source,
                resolvedValue: String,
                line: SourceLine = SourceLine(0)) {
        self.name = name
        self.source = source
        self.resolvedValue = resolvedValue
        self.line = line
    }
}
