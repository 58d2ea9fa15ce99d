/// An `EXT-X-KEY` in force for a segment or map (RFC 8216bis §4.4.4.4).
public struct SegmentKey: Hashable, Sendable {
    /// The method.
    public let method: EncryptionMethod
    /// The key's URI as written (may carry secrets: never log it unredacted).
    public let uri: String?
    /// The explicit 16-byte IV, or nil for the media-sequence IV.
    public let iv: [UInt8]?
    /// `KEYFORMAT`; `identity` when absent.
    public let keyFormat: String
    /// The line of the tag.
    public let line: Int

    /// True for the `identity` key format, the only one whose key is the URI's 16 raw bytes.
    public var isIdentity: Bool { keyFormat == "identity" }
}
