/// Whether this machine can reach beyond itself, and through what.
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
    /// Satisfied: an interface other than loopback is up with a routable address, and a default
    /// route exists (IPv4 or IPv6). Unsatisfied otherwise.
    public enum Status: String, Sendable, Hashable {
        /// Traffic can leave the machine.
        case satisfied
        /// It cannot (no link, no address, or no default route).
        case unsatisfied
    }

    /// The verdict.
    public let status: Status
    /// Every interface, loopback included, sorted by name.
    public let interfaces: [NetworkInterface]
    /// A default IPv4 route exists.
    public let hasIPv4DefaultRoute: Bool
    /// A default IPv6 route exists.
    public let hasIPv6DefaultRoute: Bool

    /// A path; `status` follows from the interfaces and routes.
    public init(interfaces: [NetworkInterface], hasIPv4DefaultRoute: Bool, hasIPv6DefaultRoute: Bool) {
        self.interfaces = interfaces.sorted { $0.name < $1.name }
        self.hasIPv4DefaultRoute = hasIPv4DefaultRoute
        self.hasIPv6DefaultRoute = hasIPv6DefaultRoute
        let usable = interfaces.contains { $0.kind != .loopback && $0.isUp && $0.hasRoutableAddress }
        status = usable && (hasIPv4DefaultRoute || hasIPv6DefaultRoute) ? .satisfied : .unsatisfied
    }

    /// True when satisfied.
    public var isSatisfied: Bool { status == .satisfied }

    /// The kinds of the interfaces that carry traffic out (up, routable, not loopback).
    public var usableKinds: Set<NetworkInterface.Kind> {
        Set(interfaces.filter { $0.kind != .loopback && $0.isUp && $0.hasRoutableAddress }.map(\.kind))
    }

    public var description: String {
        let kinds = usableKinds.map(\.rawValue).sorted().joined(separator: ",")
        return "\(status.rawValue)" + (kinds.isEmpty ? "" : " (\(kinds))")
    }
}
