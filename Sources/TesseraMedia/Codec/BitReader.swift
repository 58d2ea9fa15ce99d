/// Reads bits most significant first from a byte array, with the Exp-Golomb codes of H.264
/// and HEVC parameter sets (ITU-T H.264 §9.1, H.265 §9.2). Reading past the end is a typed
/// `malformed-elementary-stream` error, never a trap.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0
    /// What is being read, for messages.
    private let what: String

    init(_ bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.what = what
    }

    /// Bits not yet read.
    var remaining: Int { bytes.count * 8 - position }

    /// The next `count` bits (at most 32), as `u(n)`.
    mutating func bits(_ count: Int) throws(MediaError) -> UInt32 {
        precondition(count <= 32, "at most 32 bits at a time")
        guard count <= remaining else {
            throw MediaError(.malformedElementaryStream, "The \(what) ends before its syntax does.")
        }
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | UInt32(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// One bit, as a flag.
    mutating func flag() throws(MediaError) -> Bool { try bits(1) == 1 }

    /// Skips `count` bits.
    mutating func skip(_ count: Int) throws(MediaError) {
        guard count <= remaining else {
            throw MediaError(.malformedElementaryStream, "The \(what) ends before its syntax does.")
        }
        position += count
    }

    /// An unsigned Exp-Golomb code, `ue(v)` (values up to 2^32 − 2).
    mutating func unsignedGolomb() throws(MediaError) -> UInt32 {
        var zeros = 0
        while try bits(1) == 0 {
            zeros += 1
            guard zeros < 32 else { throw MediaError(.malformedElementaryStream, "The \(what) has an Exp-Golomb code over 32 bits.") }
        }
        return zeros == 0 ? 0 : (1 << UInt32(zeros)) - 1 + (try bits(zeros))
    }

    /// A signed Exp-Golomb code, `se(v)`.
    mutating func signedGolomb() throws(MediaError) -> Int32 {
        let code = try unsignedGolomb()
        return code & 1 == 1 ? Int32(code / 2 + 1) : -Int32(code / 2)
    }

    /// The RBSP of a NAL unit's payload: each emulation prevention byte (0x03 after two zero
    /// bytes) removed (H.264 §7.4.1, H.265 §7.4.2).
    static func rbsp<C: Collection<UInt8>>(_ payload: C) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}
