/// A W3C Trace Context `traceparent` value (version 00): which trace a request belongs to and
/// which span sent it.
public struct TraceParent: Sendable, Equatable, CustomStringConvertible {
    /// 16 bytes, not all zero.
    public let traceID: [UInt8]
    /// 8 bytes, not all zero.
    public let parentID: [UInt8]
    /// Trace flags; bit 0 is "sampled".
    public let flags: UInt8

    /// A new trace with a random trace ID and span ID.
    public init<G: RandomNumberGenerator>(sampled: Bool = true, using generator: inout G) {
        traceID = Self.randomID(count: 16, using: &generator)
        parentID = Self.randomID(count: 8, using: &generator)
        flags = sampled ? 1 : 0
    }

    /// A new trace from the system's random source.
    public init(sampled: Bool = true) {
        var generator = SystemRandomNumberGenerator()
        self.init(sampled: sampled, using: &generator)
    }

    private init(traceID: [UInt8], parentID: [UInt8], flags: UInt8) {
        self.traceID = traceID
        self.parentID = parentID
        self.flags = flags
    }

    /// Parses a header value; nil when it is malformed, all-zero IDs, or version `ff`. Versions
    /// above 00 are read by their first four fields, as the specification requires.
    public init?(headerValue: String) {
        let text = Array(headerValue.utf8.drop { $0 == 0x20 || $0 == 0x09 })
        guard text.count >= 55, let version = Self.hex(text[0..<2]).first, version != 0xFF,
              text[2] == 0x2D, text[35] == 0x2D, text[52] == 0x2D else { return nil }
        let trailer = text[55...].drop { $0 == 0x20 || $0 == 0x09 }
        guard version == 0 ? trailer.isEmpty : (text.count == 55 || text[55] == 0x2D) else { return nil }
        let trace = Self.hex(text[3..<35]), parent = Self.hex(text[36..<52]), flags = Self.hex(text[53..<55])
        guard trace.count == 16, parent.count == 8, flags.count == 1,
              trace.contains(where: { $0 != 0 }), parent.contains(where: { $0 != 0 }) else { return nil }
        self.init(traceID: trace, parentID: parent, flags: flags[0])
    }

    /// The same trace with a new span ID: what this client sends when it continues a caller's
    /// trace.
    public func child<G: RandomNumberGenerator>(using generator: inout G) -> TraceParent {
        TraceParent(traceID: traceID, parentID: Self.randomID(count: 8, using: &generator), flags: flags)
    }

    /// Whether the sampled flag is set.
    public var sampled: Bool { flags & 1 == 1 }

    /// The header value, lowercase hex.
    public var description: String {
        "00-\(Self.hexText(traceID))-\(Self.hexText(parentID))-\(Self.hexText([flags]))"
    }

    private static func randomID<G: RandomNumberGenerator>(count: Int, using generator: inout G) -> [UInt8] {
        while true {
            let id = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            if id.contains(where: { $0 != 0 }) { return id }
        }
    }

    /// Lowercase hex only (the specification forbids uppercase); empty on any other byte.
    private static func hex(_ digits: ArraySlice<UInt8>) -> [UInt8] {
        guard digits.count % 2 == 0 else { return [] }
        var out: [UInt8] = []
        var high: UInt8?
        for byte in digits {
            let value: UInt8
            switch byte {
            case 0x30...0x39: value = byte - 0x30
            case 0x61...0x66: value = byte - 0x61 + 10
            default: return []
            }
            if let h = high { out.append(h << 4 | value); high = nil } else { high = value }
        }
        return out
    }

    private static func hexText(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
