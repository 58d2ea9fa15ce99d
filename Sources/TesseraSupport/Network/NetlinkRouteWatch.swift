#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

/// A NETLINK_ROUTE socket subscribed to link, address and route changes: poll(2) its descriptor,
/// then `drain()` to learn that something changed (what changed is read again from the system).
package final class NetlinkRouteWatch {
    package let descriptor: Int32

    /// Opens the socket.
    /// - Throws: `io-failed` when the system has no netlink for this process (some sandboxes).
    package init() throws(SupportError) {
        let descriptor = tessera_netlink_route_socket()
        guard descriptor >= 0 else {
            throw SupportError(.ioFailed, "No netlink route socket: \(String(cString: strerror(errno))).")
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
