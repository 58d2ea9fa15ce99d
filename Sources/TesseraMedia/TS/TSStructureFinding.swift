/// A structural problem in an MPEG-TS byte stream, located by byte offset (ISO/IEC 13818-1
/// §2.4.3.2).
public struct TSStructureFinding: Sendable, Equatable, CustomStringConvertible {
    /// Stable IDs.
    public enum Kind: String, Sendable {
        /// A packet does not start with the 0x47 sync byte.
        case syncLost = "ts-sync-lost"
        /// The stream does not end on a 188-byte packet boundary.
        case partialPacket = "ts-partial-packet"
        /// The stream holds no packet at all.
        case empty = "ts-empty"
    }

    /// What was found.
    public let kind: Kind
    /// Byte offset of the problem from the start of the stream.
    public let byteOffset: UInt64
    /// One sentence: what was found and what was expected.
    public let message: String

    public var description: String { "\(kind.rawValue) at byte \(byteOffset): \(message)" }
}
