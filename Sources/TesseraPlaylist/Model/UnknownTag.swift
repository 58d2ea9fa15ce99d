/// A tag this version does not know, kept verbatim (RFC 8216bis §6.3.1: clients ignore unknown
/// tags; Tessera keeps them so a written playlist loses nothing).
public struct UnknownTag: Hashable, Sendable {
    /// The whole line as written, starting with `#EXT`.
    public var text: String
    /// Where it was.
    public var line: SourceLine

    /// Creates an unknown tag.
    public init(text: String, line: SourceLine = SourceLine(0)) {
        self.text = text
        self.line = line
    }
}
