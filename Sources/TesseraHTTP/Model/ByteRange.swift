/// A single byte range of a resource (RFC 9110 §14.1.2), as HLS `EXT-X-BYTERANGE` needs it.
public struct ByteRange: Hashable, Sendable, CustomStringConvertible {
    /// The first byte's offset.
    public let offset: UInt64
    /// The number of bytes, or nil for "to the end".
    public let length: UInt64?

    /// A range of `length` bytes from `offset`, or to the end when `length` is nil.
    public init(offset: UInt64, length: UInt64?) {
        precondition(length.map { $0 > 0 } ?? true, "a byte range has at least one byte")
        precondition(length.map { offset.addingReportingOverflow($0 - 1).overflow == false } ?? true,
                     "byte range overflows")
        self.offset = offset
        self.length = length
    }

    /// The range, or nil when it would be empty or end past 2^64 (for values read from input).
    public static func checked(offset: UInt64, length: UInt64?) -> ByteRange? {
        if let length {
            guard length > 0, !offset.addingReportingOverflow(length - 1).overflow else { return nil }
        }
        return ByteRange(offset: offset, length: length)
    }

    /// The last byte's offset, when the length is known.
    public var lastByte: UInt64? { length.map { offset + $0 - 1 } }

    /// The `Range` header value's spec part, e.g. `100-199` or `100-`.
    public var headerSpec: String {
        lastByte.map { "\(offset)-\($0)" } ?? "\(offset)-"
    }

    public var description: String { "bytes=\(headerSpec)" }
}
