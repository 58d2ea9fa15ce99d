#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP listener whose accept queue is full and never drained, so further connection
/// attempts get no SYN-ACK: a connect that cannot complete, without leaving the machine.
public final class SaturatedListener: @unchecked Sendable {
    /// The listening port.
    public let port: UInt16
    private var descriptors: [Int32] = []

    /// Listens with a backlog of 0 and fills the queue.
    public init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SocketFailure(description: "socket() failed") }
        descriptors.append(listener)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 0) == 0 else { throw SocketFailure(description: "bind/listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        // Fill the accept queue: non-blocking connects until one stays in progress.
        for _ in 0..<8 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            descriptors.append(client)
            var target = Self.loopback(port: port)
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }

    deinit { for fd in descriptors { close(fd) } }

    /// A port with nothing listening (bound briefly, then released).
    public static func unusedPort() throws -> UInt16 {
        try RefusingPort().port    // released at once: for a server that binds it itself
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }
}

/// A socket call failed in a test helper.
public struct SocketFailure: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
}
