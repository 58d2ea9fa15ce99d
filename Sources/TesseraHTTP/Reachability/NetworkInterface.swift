/// One network interface as the path sees it.
public struct NetworkInterface: Sendable, Hashable {
    /// What kind of link it is.
    public enum Kind: String, Sendable, Hashable {
        /// `lo`.
        case loopback
        /// Ethernet with a device behind it.
        case wired
        /// 802.11 (it has a `wireless` entry in sysfs).
        case wifi
        /// A mobile broadband modem (`wwan*`).
        case cellular
        /// No device behind it: bridges, veth, tun/tap, VPNs, containers' links.
        case virtual
        /// Anything else.
        case other
    }

    /// The interface's name (`eth0`, `wlp2s0`).
    public let name: String
    /// Its kind.
    public let kind: Kind
    /// Up and running (IFF_UP and IFF_RUNNING).
    public let isUp: Bool
    /// It holds at least one IPv4 or IPv6 address that is not link-local.
    public let hasRoutableAddress: Bool

    /// An interface.
    public init(name: String, kind: Kind, isUp: Bool, hasRoutableAddress: Bool) {
        self.name = name
        self.kind = kind
        self.isUp = isUp
        self.hasRoutableAddress = hasRoutableAddress
    }
}
