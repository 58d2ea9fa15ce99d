/// 33-bit MPEG-2 timestamps (PTS, DTS, the PCR base): 90 kHz ticks that wrap at 2^33, with their
/// field layouts (ISO/IEC 13818-1 §2.4.3.5 for the PCR, §2.4.3.7 for PES timestamps). Shared by
/// the validator (which reads and orders them) and the rebaser (which also moves them in place).
enum MPEGTimestamp {
    /// The values a 33-bit timestamp can hold.
    static let mask: UInt64 = (1 << 33) - 1
    /// 90 kHz: timestamp ticks per second.
    static let ticksPerSecond: UInt64 = 90_000

    /// The value of a 5-byte PES timestamp field (4-bit prefix, then 3 + 15 + 15 bits, each group
    /// followed by a marker bit).
    static func decode(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8) -> UInt64 {
        UInt64(b0 >> 1 & 0x07) << 30 | UInt64(b1) << 22 | UInt64(b2 >> 1) << 15 | UInt64(b3) << 7 | UInt64(b4 >> 1)
    }

    /// The PES timestamp field at `index`, without checking prefix or markers.
    static func readField(_ b: UnsafeRawBufferPointer, at i: Int) -> UInt64 {
        decode(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4])
    }

    /// The PES timestamp field at `index` when its 4-bit `prefix` (`0010` PTS only, `0011` PTS
    /// with DTS, `0001` DTS) and its three marker bits are right; nil otherwise.
    static func readCheckedField(_ b: UnsafeRawBufferPointer, at i: Int, prefix: UInt8) -> UInt64? {
        guard b[i] >> 4 == prefix, b[i] & 1 == 1, b[i + 2] & 1 == 1, b[i + 4] & 1 == 1 else { return nil }
        return readField(b, at: i)
    }

    /// Writes a PES timestamp field at `index`, keeping the 4-bit prefix and the marker bits.
    static func writeField(_ b: UnsafeMutableRawBufferPointer, at i: Int, _ value: UInt64) {
        b[i] = b[i] & 0xF1 | UInt8(value >> 29 & 0x0E)
        b[i + 1] = UInt8(value >> 22 & 0xFF)
        b[i + 2] = b[i + 2] & 0x01 | UInt8(value >> 14 & 0xFE)
        b[i + 3] = UInt8(value >> 7 & 0xFF)
        b[i + 4] = b[i + 4] & 0x01 | UInt8(value << 1 & 0xFE)
    }

    /// The 33-bit `program_clock_reference_base` at `index`.
    static func readClockBase(_ b: UnsafeRawBufferPointer, at i: Int) -> UInt64 {
        UInt64(b[i]) << 25 | UInt64(b[i + 1]) << 17 | UInt64(b[i + 2]) << 9 | UInt64(b[i + 3]) << 1 | UInt64(b[i + 4] >> 7)
    }

    /// Writes the 33-bit PCR base at `index`, keeping the reserved bits and the 9-bit extension.
    static func writeClockBase(_ b: UnsafeMutableRawBufferPointer, at i: Int, _ base: UInt64) {
        b[i] = UInt8(base >> 25 & 0xFF)
        b[i + 1] = UInt8(base >> 17 & 0xFF)
        b[i + 2] = UInt8(base >> 9 & 0xFF)
        b[i + 3] = UInt8(base >> 1 & 0xFF)
        b[i + 4] = b[i + 4] & 0x7F | UInt8(base << 7 & 0x80)
    }

    /// How far `b` is ahead of `a`, modulo 2^33.
    static func forward(from a: UInt64, to b: UInt64) -> UInt64 {
        (b &+ (1 << 33) &- a) & mask
    }

    /// `a - b` modulo 2^33, as a signed value in (-2^32, 2^32].
    static func difference(_ a: UInt64, _ b: UInt64) -> Int64 {
        let d = forward(from: b, to: a)
        return d > (1 << 32) ? Int64(d) - Int64(1 << 33) : Int64(d)
    }
}
