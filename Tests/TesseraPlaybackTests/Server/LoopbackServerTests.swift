import Foundation
import Testing
import TesseraHTTP
import TesseraPlayback
import TesseraTestSupport

@Suite("LoopbackServer")
struct LoopbackServerTests {
    static let payload = TemporaryDirectory.pattern(count: 1000, seed: 9)

    /// A served tree: `/data.bin` (1000 bytes), `/index.m3u8`, and symlinks pointing outside.
    final class Tree: Sendable {
        let directory: TemporaryDirectory
        let outside: TemporaryDirectory
        let server: LoopbackServer

        init(configuration: LoopbackServer.Configuration = LoopbackServer.Configuration()) throws {
            directory = try TemporaryDirectory()
            outside = try TemporaryDirectory()
            try directory.write("data.bin", LoopbackServerTests.payload)
            try directory.write("sub/index.m3u8", Array("#EXTM3U\n".utf8))
            let secret = try outside.write("secret.txt", Array("secret".utf8))
            try FileManager.default.createSymbolicLink(at: directory.url.appendingPathComponent("link.txt"),
                                                       withDestinationURL: secret)
            try FileManager.default.createSymbolicLink(at: directory.url.appendingPathComponent("out"),
                                                       withDestinationURL: outside.url)
            server = try LoopbackServer(configuration: configuration,
                                        responder: DirectoryResponder(directory: directory.url))
        }

        deinit { server.shutdown() }

        func get(_ target: String, headers: String = "", method: String = "GET") throws -> RawHTTPClient.Reply {
            try RawHTTPClient.exchange(port: server.port,
                                       "\(method) \(target) HTTP/1.1\r\nHost: x\r\n\(headers)Connection: close\r\n\r\n")
        }
    }

    @Test("binding anything but 127.0.0.0/8 or ::1 is refused with a typed error", arguments: [
        "0.0.0.0", "::", "192.168.1.10", "localhost", "", "127.0.0.0", "127.255.255.255", "127.0.0", "127.0.0.256",
        "128.0.0.1", "127.0.0.1.5", "127.0.0.+1",
    ])
    func nonLoopbackRefused(address: String) {
        do {
            _ = try LoopbackAddress(address)
            Issue.record("accepted \(address)")
        } catch {
            #expect(error.code == .nonLoopbackAddress)
        }
    }

    @Test("binds another address of 127.0.0.0/8 (a second host for pathways)")
    func otherLoopbackHost() throws {
        var configuration = LoopbackServer.Configuration()
        configuration.address = try LoopbackAddress("127.0.0.2")
        #expect(try LoopbackAddress("127.0.0.1") == .ipv4)
        let tree = try Tree(configuration: configuration)
        #expect(tree.server.baseURL.absoluteString.hasPrefix("http://127.0.0.2:"))
        let reply = try RawHTTPClient.exchange(host: "127.0.0.2", port: tree.server.port,
                                               "GET /data.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(reply.status == 200 && reply.body == Self.payload)
    }

    @Test("binds 127.0.0.1 on a kernel-chosen port and serves a file whole")
    func servesFile() throws {
        let tree = try Tree()
        #expect(tree.server.port != 0)
        let reply = try tree.get("/data.bin")
        #expect(reply.status == 200)
        #expect(reply.body == Self.payload)
        #expect(reply.headers["accept-ranges"] == "bytes")
        #expect(reply.headers["content-length"] == "1000")
        #expect(reply.headers["content-type"] == "application/octet-stream")
    }

    /// Whether this machine can bind ::1 at all (a socket bound to port 0 and closed).
    static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }()

    // Skipped, and reported as skipped (never as passed), on a machine without IPv6 loopback.
    @Test("binds ::1 when asked", .enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback"))
    func ipv6() throws {
        var configuration = LoopbackServer.Configuration()
        configuration.address = try LoopbackAddress("::1")
        let tree = try Tree(configuration: configuration)
        let reply = try RawHTTPClient.exchange(port: tree.server.port,
                                               "GET /data.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", ipv6: true)
        #expect(reply.status == 200 && reply.body == Self.payload)
        #expect(tree.server.baseURL.absoluteString.hasPrefix("http://[::1]:"))
    }

    @Test("a single range gets 206 with Content-Range and exactly those bytes")
    func range() throws {
        let tree = try Tree()
        let reply = try tree.get("/data.bin", headers: "Range: bytes=100-199\r\n")
        #expect(reply.status == 206)
        #expect(reply.headers["content-range"] == "bytes 100-199/1000")
        #expect(reply.body == Array(Self.payload[100..<200]))
        let suffix = try tree.get("/data.bin", headers: "Range: bytes=-10\r\n")
        #expect(suffix.headers["content-range"] == "bytes 990-999/1000")
        #expect(suffix.body == Array(Self.payload[990...]))
    }

    @Test("an unsatisfiable range gets 416 with Content-Range: bytes */size and no body")
    func unsatisfiable() throws {
        let tree = try Tree()
        let reply = try tree.get("/data.bin", headers: "Range: bytes=5000-\r\n")
        #expect(reply.status == 416)
        #expect(reply.headers["content-range"] == "bytes */1000")
        #expect(reply.body.isEmpty)
    }

    @Test("several ranges are ignored: 200 with the whole body")
    func multipleRanges() throws {
        let tree = try Tree()
        let reply = try tree.get("/data.bin", headers: "Range: bytes=0-1,5-6\r\n")
        #expect(reply.status == 200 && reply.body == Self.payload)
    }

    @Test("HEAD gets the GET headers and no body, ranges included")
    func head() throws {
        let tree = try Tree()
        let reply = try tree.get("/data.bin", method: "HEAD")
        #expect(reply.status == 200)
        #expect(reply.headers["content-length"] == "1000")
        #expect(reply.body.isEmpty)
        let ranged = try tree.get("/data.bin", headers: "Range: bytes=0-9\r\n", method: "HEAD")
        #expect(ranged.status == 206 && ranged.headers["content-length"] == "10" && ranged.body.isEmpty)
    }

    @Test("methods other than GET and HEAD get 405 with Allow", arguments: ["POST", "PUT", "DELETE", "OPTIONS"])
    func otherMethods(method: String) throws {
        let tree = try Tree()
        let reply = try tree.get("/data.bin", headers: "Content-Length: 0\r\n", method: method)
        #expect(reply.status == 405)
        #expect(reply.headers["allow"] == "GET, HEAD")
    }

    @Test("paths that escape the root, symlinks and directories are 404", arguments: [
        "/../etc/passwd", "/sub/../../etc/passwd", "/%2e%2e/etc/passwd", "//etc/passwd", "/link.txt",
        "/out/secret.txt", "/sub", "/sub/", "/missing.ts", "/./data.bin",
    ])
    func escapes(path: String) throws {
        let tree = try Tree()
        let reply = try tree.get(path)
        #expect(reply.status == 404)
        #expect(!String(decoding: reply.body, as: UTF8.self).contains("secret"))
    }

    @Test("playlists are served with their media type and no-cache")
    func playlistHeaders() throws {
        let tree = try Tree()
        let reply = try tree.get("/sub/index.m3u8")
        #expect(reply.headers["content-type"] == "application/vnd.apple.mpegurl")
        #expect(reply.headers["cache-control"] == "no-cache")
    }

    @Test("a request head larger than the connection memory limit gets 431")
    func headerLimit() throws {
        var configuration = LoopbackServer.Configuration()
        configuration.connectionMemoryLimit = 4096
        let tree = try Tree(configuration: configuration)
        let reply = try tree.get("/data.bin", headers: "X-Big: \(String(repeating: "a", count: 6000))\r\n")
        #expect(reply.status == 431)
    }

    @Test("at the connection limit a new connection makes room: the one idle the longest is closed, and the new one is served")
    func connectionLimit() throws {
        var configuration = LoopbackServer.Configuration()
        configuration.maximumConnections = 2
        let tree = try Tree(configuration: configuration)
        let idle = try RawConnection(port: tree.server.port)
        let busy = try RawConnection(port: tree.server.port)
        busy.send("GET /data.bin HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(busy.receive(within: 5000) != nil, "served, then kept alive")
        let newcomer = try RawConnection(port: tree.server.port)
        newcomer.send("GET /data.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = RawHTTPClient.parse(newcomer.receiveUntilClosed())
        #expect(reply.status == 200 && reply.body == Self.payload)
        #expect(idle.isClosedByPeer(within: 5000), "the connection idle the longest (it never asked anything) was closed")
    }

    @Test("300 idle connections leave every other request answered")
    func idleConnections() throws {
        let tree = try Tree()
        let idle = try (0..<300).map { _ in try RawConnection(port: tree.server.port) }
        for _ in 0..<20 {
            let reply = try tree.get("/data.bin")
            #expect(reply.status == 200 && reply.body == Self.payload)
        }
        withExtendedLifetime(idle) {}
    }

    @Test("a connection that connects and sends nothing is cut at the request-head deadline")
    func silentConnection() throws {
        var configuration = LoopbackServer.Configuration()
        configuration.requestHeaderDeadline = .seconds(1)
        configuration.sweepInterval = .milliseconds(100)
        let tree = try Tree(configuration: configuration)
        let silent = try RawConnection(port: tree.server.port)
        #expect(silent.isClosedByPeer(within: 10_000), "closed by the server at the deadline, not held until the idle timeout")
    }

    @Test("a control byte in a path, %00 above all (it would cut the path short where C reads it), is refused with 400", arguments: [
        "/data.bin%00.m3u8", "/data.bin%00", "/da%01ta.bin", "/data.bin%0A", "/data.bin%7F",
    ])
    func controlBytes(_ target: String) throws {
        let tree = try Tree()
        #expect(try tree.get(target).status == 400)
        #expect(try tree.get("/data%2Ebin").status == 200, "an escape of a printable byte is decoded as before")
    }

    @Test("an idle connection is closed by the idle timeout")
    func idleTimeout() throws {
        var configuration = LoopbackServer.Configuration()
        configuration.idleTimeout = .seconds(1)
        let tree = try Tree(configuration: configuration)
        let received = try RawHTTPClient.readUntilClosed(port: tree.server.port, sending: Array("GET /data".utf8))
        #expect(received.isEmpty)
    }
}
