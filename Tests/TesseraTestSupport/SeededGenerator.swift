/// A deterministic random source (SplitMix64) for seeded property tests.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that always yields the same sequence for `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Splits `bytes` into random chunks of 1…`maximum` bytes.
    public mutating func chunks(of bytes: [UInt8], maximum: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            let size = Int.random(in: 1...maximum, using: &self)
            out.append(Array(bytes[index..<min(bytes.count, index + size)]))
            index += size
        }
        return out
    }
}
