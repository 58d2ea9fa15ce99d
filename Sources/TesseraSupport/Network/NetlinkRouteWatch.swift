#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A NETLINK_ROUTE socket subscribed to link, address and route changes (IPv4 and IPv6): poll(2)
/// its descriptor, then `drain()` to learn that something changed (what changed is read again
/// from the system).
package final class NetlinkRouteWatch {
    /// `struct sockaddr_nl` of <linux/netlink.h>, which the Glibc module does not carry.
    private struct NetlinkAddress {
        var family = UInt16(AF_NETLINK)
        var pad: UInt16 = 0
        var pid: UInt32 = 0
        var groups: UInt32
    }

    /// RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE.
    private static let groups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400
    private static let netlinkRoute: Int32 = 0

    package let descriptor: Int32

    /// Opens the socket.
    /// - Throws: `io-failed` when the system has no netlink for this process (some sandboxes).
    package init() throws(SupportError) {
        let descriptor = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Self.netlinkRoute)
        guard descriptor >= 0 else {
            throw SupportError(.ioFailed, "No netlink route socket: \(String(cString: strerror(errno))).")
        }
        var address = NetlinkAddress(groups: Self.groups)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<NetlinkAddress>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            _ = Glibc.close(descriptor)
            throw SupportError(.ioFailed, "The netlink route socket cannot join its groups: \(reason).")
        }
        self.descriptor = descriptor
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Reads every waiting message; true when there was at least one.
    package func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var any = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if n > 0 { any = true; continue }
            if n < 0, errno == EINTR { continue }
            return any
        }
    }
}
