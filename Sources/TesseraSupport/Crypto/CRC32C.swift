import CSystem

/// A running CRC-32C (Castagnoli; RFC 3720 §B.4): a checksum, not a digest — it finds torn,
/// lost or zeroed writes, never tampering. With the CPU's CRC instruction (SSE 4.2, ARMv8 CRC)
/// several GB/s on one core, where SHA-256 runs at 1–2: for bytes the process checks only against
/// its own earlier write (a checkpoint's record of a file nobody else reads).
public struct CRC32C: Sendable, Equatable {
    /// The checksum of the bytes so far (0 for none).
    public private(set) var value: UInt32 = 0

    /// The checksum of no bytes.
    public init() {}

    /// Adds `bytes`.
    /// - Complexity: O(n).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        value = tessera_crc32c(value, base, bytes.count)
    }

    /// Adds `bytes`.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The value as 8 lower-case hex digits, most significant first.
    public var hex: String {
        HexCoding.encode([UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
    }
}
