/// An EXT-X-KEY (or EXT-X-SESSION-KEY) (RFC 8216bis §4.4.4.4, §4.4.6.5).
public struct SegmentKey: Hashable, Sendable {
    /// METHOD.
    public var method: EncryptionMethod
    /// URI as written after variable substitution (may carry secrets: never log it unredacted).
    public var uri: String?
    /// The explicit 16-byte IV, or nil for the media-sequence IV.
    public var iv: [UInt8]?
    /// KEYFORMAT; `identity` when absent.
    public var keyFormat: String
    /// KEYFORMATVERSIONS as written, or nil when absent (meaning "1").
    public var keyFormatVersions: String?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a key.
    public init(method: EncryptionMethod, uri: String?, iv: [UInt8]? = nil, keyFormat: String = "identity",
                keyFormatVersions: String? = nil, unknownAttributes: [UnknownAttribute] = [], line: SourceLine = SourceLine(0)) {
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
