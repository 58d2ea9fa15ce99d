/// The route-table checks of the Linux path reader, public for tests and tools that read
/// saved tables.
public enum NetworkPathParsing {
    /// Whether `/proc/net/route` text has a default IPv4 route that is up.
    public static func ipv4(_ table: String) -> Bool { LinuxNetworkPathReader.hasIPv4DefaultRoute(table) }
    /// Whether `/proc/net/ipv6_route` text has a usable default IPv6 route.
    public static func ipv6(_ table: String) -> Bool { LinuxNetworkPathReader.hasIPv6DefaultRoute(table) }
}
