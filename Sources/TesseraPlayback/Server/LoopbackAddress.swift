/// The address a loopback server binds: only an IPv4 loopback address (127.0.0.0/8: `127.0.0.1`
/// by default, or another one such as `127.0.0.2` for a second host) or `::1`, never anything
/// reachable from another machine.
public enum LoopbackAddress: Sendable, Equatable, CustomStringConvertible {
    /// 127.0.0.1
    case ipv4
    /// ::1
    case ipv6
    /// Another address of 127.0.0.0/8: 127.`b`.`c`.`d`.
    case ipv4Loopback(UInt8, UInt8, UInt8)

    /// Accepts an IPv4 address of 127.0.0.0/8 in dotted decimal or exactly `"::1"` (no names are
    /// resolved, so not `localhost`).
    /// - Throws: `non-loopback-address` for anything else.
    public init(_ text: String) throws(PlaybackError) {
        if text == "::1" {
            self = .ipv6
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { part -> UInt8? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else { return nil }
            return UInt8(part)
        }
        guard parts.count == 4, octets.count == 4, octets[0] == 127,
              !(octets[1] == 255 && octets[2] == 255 && octets[3] == 255), !(octets[1] == 0 && octets[2] == 0 && octets[3] == 0) else {
            throw PlaybackError(.nonLoopbackAddress,
                                "The server binds only 127.0.0.0/8 addresses or ::1; refused \"\(text)\".")
        }
        self = octets[1] == 0 && octets[2] == 0 && octets[3] == 1 ? .ipv4 : .ipv4Loopback(octets[1], octets[2], octets[3])
    }

    /// The address as a 32-bit number in host order (IPv4 only).
    var ipv4Number: UInt32? {
        switch self {
        case .ipv4: 0x7f00_0001
        case .ipv4Loopback(let b, let c, let d): 0x7f00_0000 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
        case .ipv6: nil
        }
    }

    public var description: String {
        switch self {
        case .ipv4: "127.0.0.1"
        case .ipv6: "::1"
        case .ipv4Loopback(let b, let c, let d): "127.\(b).\(c).\(d)"
        }
    }

    /// The host part of a URL for this address.
    public var urlHost: String { self == .ipv6 ? "[::1]" : description }
}
