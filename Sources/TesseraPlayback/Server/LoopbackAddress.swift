/// The address a loopback server binds: only `127.0.0.1` or `::1`, never anything reachable from
/// another machine.
public enum LoopbackAddress: Sendable, Equatable, CustomStringConvertible {
    /// 127.0.0.1
    case ipv4
    /// ::1
    case ipv6

    /// Accepts exactly `"127.0.0.1"` or `"::1"` (no names are resolved, so not `localhost`).
    /// - Throws: `non-loopback-address` for anything else.
    public init(_ text: String) throws(PlaybackError) {
        switch text {
        case "127.0.0.1": self = .ipv4
        case "::1": self = .ipv6
        default:
            throw PlaybackError(.nonLoopbackAddress,
                                "The server binds only 127.0.0.1 or ::1; refused \"\(text)\".")
        }
    }

    public var description: String { self == .ipv4 ? "127.0.0.1" : "::1" }

    /// The host part of a URL for this address.
    public var urlHost: String { self == .ipv4 ? "127.0.0.1" : "[::1]" }
}
