#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Sends exact bytes to a loopback port and reads the reply until the server closes (or a
/// 5-second receive timeout). For requests a real client would normalise (`..`, odd methods).
public enum RawHTTPClient {
    /// A parsed reply.
    public struct Reply: Sendable {
        /// The status code (0 when nothing parseable came back).
        public let status: Int
        /// Header lines, lower-cased names.
        public let headers: [String: String]
        /// The bytes after the header block.
        public let body: [UInt8]
        /// Everything received.
        public let raw: [UInt8]
    }

    /// Sends `request` (a full HTTP/1.1 request; include `Connection: close`) and reads the reply.
    public static func exchange(host: String = "127.0.0.1", port: UInt16, _ request: String, ipv6: Bool = false) throws -> Reply {
        let fd = try connected(port: port, ipv6: ipv6, host: host)
        defer { close(fd) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SocketFailure(description: "send failed") }
            sent += n
        }
        return parse(readAll(fd))
    }

    /// `exchange` on a dedicated thread, so blocking socket calls never occupy the cooperative
    /// thread pool (two threads on a two-core machine).
    public static func exchangeOffPool(port: UInt16, _ request: String, ipv6: Bool = false) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try exchange(port: port, request, ipv6: ipv6) })
            }
            thread.start()
        }
    }

    /// Opens a connection, sends `bytes`, and reads until the server closes it.
    public static func readUntilClosed(port: UInt16, sending bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connected(port: port, ipv6: false)
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return readAll(fd)
    }

    static func connected(port: UInt16, ipv6: Bool, host: String = "127.0.0.1") throws -> Int32 {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketFailure(description: "socket failed") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let rc: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = SaturatedListener.loopback(port: port)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                close(fd)
                throw SocketFailure(description: "\(host) is not an IPv4 address")
            }
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard rc == 0 else {
            close(fd)
            throw SocketFailure(description: "connect to port \(port) failed")
        }
        return fd
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    /// Parses a raw reply.
    public static func parse(_ raw: [UInt8]) -> Reply {
        let separator: [UInt8] = [13, 10, 13, 10]
        var split = raw.count
        if raw.count >= 4 {
            for i in 0...(raw.count - 4) where Array(raw[i..<i + 4]) == separator {
                split = i
                break
            }
        }
        let head = String(decoding: raw[0..<split], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let status = lines.first.flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = split + 4 <= raw.count ? Array(raw[(split + 4)...]) : []
        return Reply(status: status, headers: headers, body: body, raw: raw)
    }
}
