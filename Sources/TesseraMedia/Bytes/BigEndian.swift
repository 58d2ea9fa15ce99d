/// Big-endian fields of binary media (ISO/IEC 13818-1 and 14496-12 store every multi-byte
/// field most significant byte first). Callers check bounds first; these only read.
enum BigEndian {
    /// The 16-bit field at `index`.
    static func uint16(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    /// The 32-bit field at `index`.
    static func uint32(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    /// The 64-bit field at `index`.
    static func uint64(_ bytes: [UInt8], _ index: Int) -> UInt64 {
        UInt64(uint32(bytes, index)) << 32 | UInt64(uint32(bytes, index + 4))
    }

    /// The 32-bit field at `index` of raw bytes.
    static func uint32(_ bytes: UnsafeRawBufferPointer, _ index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    /// Writes `value` as the 32-bit field at `index`.
    static func write(_ value: UInt32, into bytes: inout [UInt8], at index: Int) {
        bytes[index] = UInt8(value >> 24)
        bytes[index + 1] = UInt8(value >> 16 & 0xFF)
        bytes[index + 2] = UInt8(value >> 8 & 0xFF)
        bytes[index + 3] = UInt8(value & 0xFF)
    }
}
