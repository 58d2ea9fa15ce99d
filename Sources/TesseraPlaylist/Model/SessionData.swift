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
    public let dataId: String
    /// VALUE.
    public let value: String?
    /// URI.
    public let uri: String?
    /// FORMAT (JSON when absent).
    public let format: Format
    /// LANGUAGE.
    public let language: String?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
