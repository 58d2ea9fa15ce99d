/// 33-bit MPEG-2 timestamps (PTS, DTS, the PCR base): 90 kHz ticks that wrap at 2^33. Shared by
/// the validator (which reads and orders them) and the rebaser (which also moves them).
enum MPEGTimestamp {
    /// The values a 33-bit timestamp can hold.
    static let mask: UInt64 = (1 << 33) - 1

    /// The value of a 5-byte PES timestamp field (4-bit prefix, then 3 + 15 + 15 bits, each group
    /// followed by a marker bit).
    static func decode(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8) -> UInt64 {
        UInt64(b0 >> 1 & 0x07) << 30 | UInt64(b1) << 22 | UInt64(b2 >> 1) << 15 | UInt64(b3) << 7 | UInt64(b4 >> 1)
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
