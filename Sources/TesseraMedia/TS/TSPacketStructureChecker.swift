/// Checks, while bytes stream past in chunks of any size, that they form whole 188-byte MPEG-TS
/// packets each starting with the sync byte 0x47 (ISO/IEC 13818-1 §2.4.3.2). No resync: garbage
/// between packets is reported, not skipped. Reports the first problem only; allocation-free.
public struct TSPacketStructureChecker: Sendable {
    /// The MPEG-TS packet size.
    public static let packetSize = 188

    /// The first problem found, if any.
    public private(set) var finding: TSStructureFinding?
    /// Bytes consumed so far.
    public private(set) var byteCount: UInt64 = 0

    /// A checker at the start of a stream.
    public init() {}

    /// Feeds the next bytes.
    /// - Complexity: O(n / 188).
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        guard finding == nil else {
            byteCount += UInt64(bytes.count)
            return
        }
        let size = UInt64(Self.packetSize)
        let phase = byteCount % size
        var index = phase == 0 ? 0 : Int(size - phase)
        while index < bytes.count {
            if bytes[index] != 0x47 {
                let offset = byteCount + UInt64(index)
                finding = TSStructureFinding(
                    kind: .syncLost, byteOffset: offset,
                    message: "Packet \(offset / size) starts with 0x\(String(bytes[index], radix: 16)) instead of the sync byte 0x47.")
                break
            }
            index += Self.packetSize
        }
        byteCount += UInt64(bytes.count)
    }

    /// Feeds the next bytes.
    public mutating func consume(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { consume($0) }
    }

    /// Ends the stream and returns the first problem, if any.
    public mutating func finish() -> TSStructureFinding? {
        if finding == nil {
            if byteCount == 0 {
                finding = TSStructureFinding(kind: .empty, byteOffset: 0, message: "The stream holds no MPEG-TS packet.")
            } else if byteCount % UInt64(Self.packetSize) != 0 {
                let last = byteCount - byteCount % UInt64(Self.packetSize)
                finding = TSStructureFinding(
                    kind: .partialPacket, byteOffset: last,
                    message: "The stream ends \(byteCount - last) bytes into a packet; 188-byte packets were expected.")
            }
        }
        return finding
    }
}
