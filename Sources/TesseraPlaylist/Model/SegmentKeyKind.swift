/// What kind of key a segment stands under: its METHOD and KEYFORMAT (RFC 8216bis §4.4.4.4),
/// without the URI, IV or line — what a summary of a playlist's encryption lists.
public struct SegmentKeyKind: Hashable, Sendable {
    /// METHOD.
    public var method: EncryptionMethod
    /// KEYFORMAT (`identity` when absent).
    public var keyFormat: String

    /// A kind of key.
    public init(method: EncryptionMethod, keyFormat: String) {
        self.method = method
        self.keyFormat = keyFormat
    }

    /// The kind of `key`.
    public init(_ key: SegmentKey) {
        self.init(method: key.method, keyFormat: key.keyFormat)
    }

    /// True for the `identity` key format.
    public var isIdentity: Bool { keyFormat == "identity" }
}
