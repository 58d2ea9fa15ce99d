/// How a resource is encrypted: whole-resource AES-128-CBC with PKCS#7 padding (RFC 8216bis
/// §4.4.4.4), with the key named by its URI as written in its stream's playlist (resolved at
/// fetch time, like the media) and the IV in force.
public struct ResourceEncryption: Hashable, Sendable {
    /// The key's URI as written (resolved against its stream's playlist at fetch time). May carry
    /// secrets: never logged unredacted.
    public let keyURI: String
    /// The stream whose playlist names the key.
    public let stream: StreamIdentity
    /// The 16-byte IV: the key's explicit IV or the segment's media-sequence IV.
    public let iv: [UInt8]

    /// Creates the encryption of a resource.
    public init(keyURI: String, stream: StreamIdentity, iv: [UInt8]) {
        precondition(iv.count == 16, "an AES-128 IV is 16 bytes")
        self.keyURI = keyURI
        self.stream = stream
        self.iv = iv
    }

    /// The key this encryption needs.
    public var key: KeyReference { KeyReference(uri: keyURI, stream: stream) }
}

/// A key named by its URI in a stream's playlist.
public struct KeyReference: Hashable, Sendable {
    /// The URI as written (may carry secrets).
    public let uri: String
    /// The stream whose playlist names it.
    public let stream: StreamIdentity
}
