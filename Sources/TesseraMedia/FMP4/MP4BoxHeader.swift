/// One box header (ISO/IEC 14496-12 §4.2): `size` (32-bit, the 64-bit `largesize` when it is 1,
/// or to the end of the enclosing space when it is 0), `type`, and for `uuid` boxes the 16-byte
/// `usertype`. Read from bytes in memory or from an `MP4ByteSource`, checked to fit before a
/// limit; the one box reader under the validator, the assembler and fragment renumbering.
public struct MP4BoxHeader: Sendable, Equatable {
    /// What makes a box header unusable.
    public enum Defect: Error, Sendable, Equatable {
        /// Fewer than 8 bytes remain where a header was expected (how many remain).
        case truncated(remaining: UInt64)
        /// A 64-bit `largesize` (or a `uuid` usertype) is cut off.
        case truncatedExtension
        /// `size` is smaller than the header itself.
        case sizeBelowHeader(size: UInt64)
        /// `size` runs past the limit (how many bytes remain).
        case pastLimit(size: UInt64, remaining: UInt64)
        /// `size` 0 (to the end) where it is not allowed (inside another box).
        case sizeToEndInside
    }

    /// The box type.
    public let type: MP4BoxType
    /// Where the box starts.
    public let offset: UInt64
    /// The whole box's size, header included.
    public let size: UInt64
    /// The header's size: 8, 16 with `largesize`, 16 more with a `uuid` usertype.
    public let headerSize: UInt64
    /// The `usertype` of a `uuid` box.
    public let userType: [UInt8]?

    /// Where the payload starts.
    public var payloadOffset: UInt64 { offset + headerSize }
    /// Where the box ends.
    public var end: UInt64 { offset + size }
    /// The payload's size.
    public var payloadSize: UInt64 { size - headerSize }

    /// Reads the header in `bytes` (the first up to 32 bytes at `offset`), with `remaining` bytes
    /// of space from `offset` to the limit. `sizeToEnd` says whether size 0 is allowed.
    static func read(_ bytes: [UInt8], at offset: UInt64, remaining: UInt64, sizeToEnd: Bool) throws(Defect) -> MP4BoxHeader {
        guard bytes.count >= 8, remaining >= 8 else { throw .truncated(remaining: remaining) }
        let type = MP4BoxType(rawValue: BigEndian.uint32(bytes, 4))
        var size = UInt64(BigEndian.uint32(bytes, 0))
        var headerSize: UInt64 = 8
        if size == 1 {
            guard bytes.count >= 16, remaining >= 16 else { throw .truncatedExtension }
            size = BigEndian.uint64(bytes, 8)
            headerSize = 16
        } else if size == 0 {
            guard sizeToEnd else { throw .sizeToEndInside }
            size = remaining
        }
        var userType: [UInt8]?
        if type == .uuid {
            let start = Int(headerSize)
            guard bytes.count >= start + 16, remaining >= headerSize + 16 else { throw .truncatedExtension }
            userType = Array(bytes[start..<start + 16])
            headerSize += 16
        }
        guard size >= headerSize else { throw .sizeBelowHeader(size: size) }
        guard size <= remaining else { throw .pastLimit(size: size, remaining: remaining) }
        return MP4BoxHeader(type: type, offset: offset, size: size, headerSize: headerSize, userType: userType)
    }

    /// The header of the box at `offset` of `source`, which must end by `limit`.
    /// - Throws: `Defect`.
    public static func read(_ source: some MP4ByteSource, at offset: UInt64, limit: UInt64, sizeToEnd: Bool) throws(Defect) -> MP4BoxHeader {
        try read(source.read(at: offset, count: 32), at: offset, remaining: limit - offset, sizeToEnd: sizeToEnd)
    }

    /// The header of the box at `index` of `bytes`, which must end by `limit` (default: the end).
    /// - Throws: `Defect`.
    public static func read(_ bytes: [UInt8], at index: Int, limit: Int? = nil, sizeToEnd: Bool) throws(Defect) -> MP4BoxHeader {
        let end = limit ?? bytes.count
        let window = Array(bytes[index..<min(end, index + 32)])
        return try read(window, at: UInt64(index), remaining: UInt64(end - index), sizeToEnd: sizeToEnd)
    }

    /// The boxes filling `bytes[range]` one after another. Stops at the first defect, which it
    /// returns beside the boxes read before it (with where it happened).
    public static func boxes(in bytes: [UInt8], _ range: Range<Int>, sizeToEnd: Bool) -> (boxes: [MP4BoxHeader], defect: (offset: Int, Defect)?) {
        var boxes: [MP4BoxHeader] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            do {
                let box = try read(bytes, at: offset, limit: range.upperBound, sizeToEnd: sizeToEnd)
                boxes.append(box)
                offset = Int(box.end)
            } catch {
                return (boxes, (offset, error))
            }
        }
        return (boxes, nil)
    }

    /// The `version` and `flags` of a full box (§4.2) whose payload starts at `index`.
    public static func fullBox(_ bytes: [UInt8], at index: Int) -> (version: UInt8, flags: UInt32)? {
        guard index + 4 <= bytes.count else { return nil }
        return (bytes[index], BigEndian.uint32(bytes, index) & 0x00FF_FFFF)
    }
}
