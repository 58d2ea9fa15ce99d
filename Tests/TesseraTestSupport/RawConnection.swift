#if canImport(Glibc)
import Glibc
#endif

/// One raw TCP connection to a loopback port, for tests that need to hold a connection open or
/// see that no reply arrives within a window. Blocking; use from a thread or a short sync test.
public final class RawConnection {
    private var descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    public init(port: UInt16) throws {
        descriptor = try RawHTTPClient.connected(port: port, ipv6: false)
    }

    deinit { close() }

    /// Sends `text`.
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The bytes that arrive within `milliseconds`, or nil when none did.
    public func receive(within milliseconds: Int32) -> [UInt8]? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Whether the peer closes the connection (or resets it) within `milliseconds`, having sent
    /// nothing more — not merely a quiet connection.
    public func isClosedByPeer(within milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) == 1 else { return false }
        var byte: UInt8 = 0
        let n = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// Everything until the peer closes (5-second receive timeout).
    public func receiveUntilClosed() -> [UInt8] { RawHTTPClient.readAll(descriptor) }

    /// Closes the connection.
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
