/// An `EXT-X-BYTERANGE` (or MAP `BYTERANGE`) as written: a length and an optional offset
/// (RFC 8216bis §4.4.4.2). `resolvedOffset` fills in the "continues from the previous range"
/// rule. Stored as the length, the resolved offset and whether the offset was written (17
/// bytes), since byte-range playlists hold one per segment.
public struct PlaylistByteRange: Hashable, Sendable {
    /// The number of bytes.
    public var length: UInt64
    /// The offset after applying the continuation rule.
    public var resolvedOffset: UInt64
    /// Whether the offset was written (`<n>@<o>`) rather than continued from the previous range.
    public var isOffsetWritten: Bool

    /// The offset as written, or nil; setting it writes it and makes it the resolved offset.
    public var offset: UInt64? {
        get { isOffsetWritten ? resolvedOffset : nil }
        set {
            isOffsetWritten = newValue != nil
            if let newValue { resolvedOffset = newValue }
        }
    }

    /// Creates a range.
    public init(length: UInt64, offset: UInt64?, resolvedOffset: UInt64) {
        precondition(offset == nil || offset == resolvedOffset, "a written offset is the resolved offset")
        self.length = length
        self.resolvedOffset = resolvedOffset
        isOffsetWritten = offset != nil
    }

    /// A range of `length` bytes at `offset`, written with its offset.
    public init(length: UInt64, offset: UInt64) {
        self.init(length: length, offset: offset, resolvedOffset: offset)
    }
}
