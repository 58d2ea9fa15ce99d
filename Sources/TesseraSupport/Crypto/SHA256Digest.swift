import CCrypto

/// A SHA-256 value. Equality is constant-time (`CRYPTO_memcmp`).
public struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Wraps 32 digest bytes.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "a SHA-256 digest is 32 bytes")
        self.bytes = bytes
    }

    /// Parses 64 hexadecimal digits (either case); nil for anything else.
    public init?(hex: some StringProtocol) {
        guard let bytes = HexCoding.decode(hex), bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Lower-case hexadecimal text, as `sha256sum` prints it.
    public var hex: String { HexCoding.encode(bytes) }

    public var description: String { hex }

    public static func == (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        ConstantTime.equals(lhs.bytes, rhs.bytes)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
