/// Builds ISO-BMFF boxes (ISO/IEC 14496-12 §4.2) in memory: big-endian fields appended in table
/// order, each box's 32-bit size filled in when it closes. Used for the movie header of a
/// progressive MP4; the media data's own header is `MP4BoxWriter.mediaDataHeader`.
struct MP4BoxWriter {
    private(set) var bytes: [UInt8] = []
    private var open: [Int] = []

    /// Opens a box of `type` (four ASCII characters), with the full-box `version` and `flags`
    /// when given.
    mutating func begin(_ type: String, version: UInt8? = nil, flags: UInt32 = 0) {
        precondition(type.utf8.count == 4, "a box type is four characters")
        open.append(bytes.count)
        u32(0)
        bytes += type.utf8
        if let version { u32(UInt32(version) << 24 | flags & 0xFF_FFFF) }
    }

    /// Closes the innermost open box, writing its size.
    mutating func end() {
        let start = open.removeLast()
        let size = UInt32(bytes.count - start)
        bytes.replaceSubrange(start..<(start + 4), with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
    }

    /// A box of `type` around what `body` writes.
    mutating func box(_ type: String, version: UInt8? = nil, flags: UInt32 = 0, _ body: (inout MP4BoxWriter) -> Void) {
        begin(type, version: version, flags: flags)
        body(&self)
        end()
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
    mutating func u32(_ value: UInt32) { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    mutating func u64(_ value: UInt64) { u32(UInt32(value >> 32)); u32(UInt32(value & 0xFFFF_FFFF)) }
    mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: count) }
    mutating func append(_ raw: [UInt8]) { bytes += raw }
    mutating func fourCC(_ code: String) { bytes += code.utf8 }

    /// The unity transformation matrix of `mvhd` and `tkhd` (§8.2.2.3).
    mutating func unityMatrix() {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { u32(value) }
    }

    /// A `free` box of `size` bytes (nothing for 0; at least 8 otherwise), zeros inside.
    static func free(_ size: Int) -> [UInt8] {
        guard size > 0 else { return [] }
        precondition(size >= 8 && size <= Int(UInt32.max), "a free box holds its 8-byte header")
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array("free".utf8)
            + [UInt8](repeating: 0, count: size - 8)
    }

    /// The header of an `mdat` box holding `payload` bytes: 8 bytes, or 16 with `largesize`
    /// when the box would pass 4 GiB.
    static func mediaDataHeader(payload: UInt64) -> [UInt8] {
        var writer = MP4BoxWriter()
        if payload + 8 <= UInt64(UInt32.max) {
            writer.u32(UInt32(payload + 8))
            writer.fourCC("mdat")
        } else {
            writer.u32(1)
            writer.fourCC("mdat")
            writer.u64(payload + 16)
        }
        return writer.bytes
    }
}
