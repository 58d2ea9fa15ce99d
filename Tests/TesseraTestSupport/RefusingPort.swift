#if canImport(Glibc)
import Glibc
#endif

/// A loopback port that refuses every connection for as long as this lives: bound, never
/// listening, so no other server of a parallel test can take it in the meantime (a port found
/// free and released could be, and then a "refused" connection would reach that server).
public final class RefusingPort: Sendable {
    /// The port.
    public let port: UInt16
    private let descriptor: Int32

    /// Binds a free loopback port without listening on it.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketFailure(description: "socket() failed") }
        var address = SaturatedListener.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else {
            close(fd)
            throw SocketFailure(description: "could not bind a loopback port")
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }
}
