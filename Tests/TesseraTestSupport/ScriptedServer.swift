#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraHTTP
import TesseraSupport

/// A small HTTP/1.1 server on 127.0.0.1 for API tests: any method, request bodies read by
/// `Content-Length`, keep-alive, and a handler that decides each reply. Every request is logged.
/// One thread per connection (blocking sockets, never the cooperative pool). Test use only.
public final class ScriptedServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method.
        public let method: String
        /// The path, percent-encoded as sent.
        public let path: String
        /// The raw query, if any.
        public let query: String?
        /// Header fields in order.
        public let headers: HTTPHeaders
        /// The body.
        public let body: [UInt8]
    }

    /// A reply.
    public struct Reply: Sendable {
        /// The status.
        public var status: Int
        /// Header fields (`Content-Length` is added).
        public var headers: HTTPHeaders
        /// The body.
        public var body: [UInt8]
        /// Exact bytes to send instead of a well-formed reply (hostile-server tests); the
        /// connection is closed after them.
        public var raw: [UInt8]?

        /// Exact bytes instead of a reply.
        public static func raw(_ text: String) -> Reply {
            var reply = Reply()
            reply.raw = Array(text.utf8)
            return reply
        }

        /// Creates a reply.
        public init(_ status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A JSON reply.
        public static func json(_ text: String, status: Int = 200) -> Reply {
            Reply(status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
        }
    }

    /// The listening port.
    public var port: UInt16 { listener.port }
    private let listener: LoopbackListener
    private let requests = Lock<[Request]>([])

    /// Starts listening; `handler` answers each request.
    public init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        let log = requests
        listener = try LoopbackListener { fd in Self.serve(fd, handler: handler, log: log) }
    }

    deinit { shutdown() }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Requests received so far, in order.
    public var log: [Request] { requests.withLock { $0 } }

    /// Stops accepting and closes every connection.
    public func shutdown() { listener.shutdown() }

    private static func serve(_ fd: Int32, handler: @Sendable (Request) -> Reply, log: Lock<[Request]>) {
        var reader = SocketReader(fd: fd)
        while let request = reader.readRequest() {
            log.withLock { $0.append(request) }
            let reply = handler(request)
            if let raw = reply.raw {
                _ = SocketReader.sendAll(fd, raw)
                return
            }
            var head = "HTTP/1.1 \(reply.status) Status\r\n"
            for field in reply.headers { head += "\(field.name): \(field.value)\r\n" }
            head += "Content-Length: \(reply.body.count)\r\n\r\n"
            let bytes = Array(head.utf8) + (request.method == "HEAD" ? [] : reply.body)
            guard SocketReader.sendAll(fd, bytes) else { return }
        }
    }
}

/// Buffered reads of HTTP/1.1 requests from a socket.
struct SocketReader {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    mutating func readRequest() -> ScriptedServer.Request? {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.indices.dropLast(3).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
            if headEnd == nil, !fill() { return nil }
        }
        guard let end = headEnd else { return nil }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end + 4)
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3 else { return nil }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers["Content-Length"].flatMap { Int($0) } ?? 0
        while buffer.count < length {
            if !fill() { return nil }
        }
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(length)
        let target = String(parts[1])
        let question = target.firstIndex(of: "?")
        return ScriptedServer.Request(method: String(parts[0]), path: String(target[..<(question ?? target.endIndex)]),
                                      query: question.map { String(target[target.index(after: $0)...]) },
                                      headers: headers, body: body)
    }

    /// Bytes read past the last request (a protocol that follows an upgrade starts here).
    mutating func takeBuffered() -> [UInt8] {
        defer { buffer = [] }
        return buffer
    }

    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}
