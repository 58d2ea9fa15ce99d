#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the path from the system as it is now: interfaces and their addresses (getifaddrs),
/// their kinds (sysfs), and the default routes (`/proc/net/route`, `/proc/net/ipv6_route`).
enum LinuxNetworkPathReader {
    static func current() -> NetworkPath {
        NetworkPath(interfaces: interfaces(), hasIPv4DefaultRoute: hasIPv4DefaultRoute(text("/proc/net/route")),
                    hasIPv6DefaultRoute: hasIPv6DefaultRoute(text("/proc/net/ipv6_route")))
    }

    /// A line of `/proc/net/route` with destination and mask 0 and the route up.
    static func hasIPv4DefaultRoute(_ table: String) -> Bool {
        table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 8, let flags = Int(fields[3], radix: 16) else { return false }
            return fields[1] == "00000000" && fields[7] == "00000000" && flags & 0x1 != 0
        }
    }

    /// A line of `/proc/net/ipv6_route` for ::/0 that is up, not a rejection, not on `lo`.
    static func hasIPv6DefaultRoute(_ table: String) -> Bool {
        table.split(separator: "\n").contains { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 10, let flags = Int(fields[8], radix: 16) else { return false }
            let up = flags & 0x1 != 0, reject = flags & 0x200 != 0
            return fields[0] == String(repeating: "0", count: 32) && fields[1] == "00" && up && !reject && fields[9] != "lo"
        }
    }

    private static func text(_ path: String) -> String {
        // A table or sysfs entry that is not there (no IPv6, a vanished interface) holds nothing.
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    private static func interfaces() -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var flags: [String: UInt32] = [:]
        var routable: Set<String> = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            let name = String(cString: entry.pointee.ifa_name)
            flags[name, default: 0] |= entry.pointee.ifa_flags
            if let address = entry.pointee.ifa_addr, isRoutable(address) { routable.insert(name) }
            cursor = entry.pointee.ifa_next
        }
        return flags.map { name, bits in
            let up = bits & UInt32(IFF_UP) != 0 && bits & UInt32(IFF_RUNNING) != 0
            return NetworkInterface(name: name, kind: kind(name, loopback: bits & UInt32(IFF_LOOPBACK) != 0), isUp: up,
                                    hasRoutableAddress: routable.contains(name))
        }
    }

    /// Not loopback, not link-local.
    private static func isRoutable(_ address: UnsafeMutablePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return value >> 24 != 127 && value >> 16 != 0xA9FE
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            let loopback = bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1
            let linkLocal = bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80
            return !loopback && !linkLocal
        default:
            return false
        }
    }

    private static func kind(_ name: String, loopback: Bool) -> NetworkInterface.Kind {
        if loopback || name == "lo" { return .loopback }
        let sys = "/sys/class/net/\(name)"
        if access(sys + "/wireless", F_OK) == 0 || access(sys + "/phy80211", F_OK) == 0 { return .wifi }
        if name.hasPrefix("wwan") || name.hasPrefix("rmnet") { return .cellular }
        guard access(sys + "/device", F_OK) == 0 else { return .virtual }
        return text(sys + "/type").hasPrefix("1") ? .wired : .other
    }
}
