/// An `EXT-X-BYTERANGE` (or MAP `BYTERANGE`) as written: a length and an optional offset
/// (RFC 8216bis §4.4.4.2). `resolvedOffset` fills in the "continues from the previous range"
/// rule.
public struct PlaylistByteRange: Hashable, Sendable {
    /// The number of bytes.
    public let length: UInt64
    /// The offset as written, or nil.
    public let offset: UInt64?
    /// The offset after applying the continuation rule.
    public let resolvedOffset: UInt64

    /// Creates a range.
    public init(length: UInt64, offset: UInt64?, resolvedOffset: UInt64) {
        self.length = length
        self.offset = offset
        self.resolvedOffset = resolvedOffset
    }
}
