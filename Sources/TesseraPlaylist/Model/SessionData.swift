/// EXT-X-SESSION-DATA (RFC 8216bis §4.4.6.4).
public struct SessionData: Hashable, Sendable {
    /// FORMAT.
    public enum Format: Hashable, Sendable {
        /// JSON (the default).
        case json
        /// RAW: binary.
        case raw
    }

    /// DATA-ID.
    public var dataId: String
    /// VALUE.
    public var value: String?
    /// URI.
    public var uri: String?
    /// FORMAT (JSON when absent).
    public var format: Format
    /// LANGUAGE.
    public var language: String?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(dataId: String,
                value: String? = nil,
                uri: String? = nil,
                format: Format,
                language: String? = nil,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.dataId = dataId
        self.value = value
        self.uri = uri
        self.format = format
        self.language = language
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
