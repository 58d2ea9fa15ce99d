/// ISO-BMFF boxes written by hand for tests that need tables no muxer would write.
enum BoxBytes {
    /// A box of `type` around `body`, its 32-bit size first.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        u32(UInt32(body.count + 8)) + Array(type.utf8) + body
    }

    /// Big-endian 32-bit fields.
    static func u32(_ values: UInt32...) -> [UInt8] {
        values.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
    }
}
