/// An EXT-X-KEY (or EXT-X-SESSION-KEY) (RFC 8216bis §4.4.4.4, §4.4.6.5).
public struct SegmentKey: Hashable, Sendable {
    /// METHOD.
    public let method: EncryptionMethod
    /// URI as written after variable substitution (may carry secrets: never log it unredacted).
    public let uri: String?
    /// The explicit 16-byte IV, or nil for the media-sequence IV.
    public let iv: [UInt8]?
    /// KEYFORMAT; `identity` when absent.
    public let keyFormat: String
    /// KEYFORMATVERSIONS as written, or nil when absent (meaning "1").
    public let keyFormatVersions: String?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine

    /// Creates a key.
    public init(method: EncryptionMethod, uri: String?, iv: [UInt8]?, keyFormat: String = "identity",
                keyFormatVersions: String? = nil, unknownAttributes: [UnknownAttribute] = [], line: SourceLine) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.unknownAttributes = unknownAttributes
        self.line = line
    }

    /// True for the `identity` key format, the only one whose key is the URI's raw bytes.
    public var isIdentity: Bool { keyFormat == "identity" }
}
