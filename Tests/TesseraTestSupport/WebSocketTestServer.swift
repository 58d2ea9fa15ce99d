#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraHTTP
import TesseraSupport

/// A WebSocket server on 127.0.0.1 for tests, scripted per connection: the handler gets a
/// `WebSocketPeer` that reads the upgrade request and then accepts it, refuses it, or answers it
/// wrongly, and sends well-formed or deliberately broken frames. One thread per connection.
public final class WebSocketTestServer: Sendable {
    private let listener: LoopbackListener
    private let upgrades = Lock<[ScriptedServer.Request]>([])
    private let finished: AsyncStream<Void>

    /// Starts listening; `handler` runs for each connection (errors end that connection).
    public init(_ handler: @escaping @Sendable (WebSocketPeer) throws -> Void) throws {
        let upgrades = upgrades
        let (finished, ended) = AsyncStream<Void>.makeStream()
        self.finished = finished
        listener = try LoopbackListener { fd in
            defer { ended.yield() }
            var reader = SocketReader(fd: fd)
            guard let request = reader.readRequest() else { return }
            upgrades.withLock { $0.append(request) }
            // A handler's error (the client hung up, broke a frame) ends its connection, as documented.
            try? handler(WebSocketPeer(fd: fd, request: request, buffered: reader.takeBuffered()))
        }
    }

    /// Returns once `count` connections' handlers have returned (one waiter at a time), so a test
    /// reads what a handler recorded only after it has recorded it.
    public func handlersFinished(_ count: Int = 1) async {
        var seen = 0
        for await _ in finished {
            seen += 1
            if seen >= count { return }
        }
    }

    deinit { listener.shutdown() }

    /// The listening port.
    public var port: UInt16 { listener.port }

    /// `ws://127.0.0.1:<port>/<path>`.
    public func url(_ path: String = "") -> URL { URL(string: "ws://127.0.0.1:\(port)/\(path)")! }

    /// The upgrade requests received so far.
    public var requests: [ScriptedServer.Request] { upgrades.withLock { $0 } }

    /// Stops accepting and shuts every connection down (a network drop, to the client).
    public func shutdown() { listener.shutdown() }

    /// A server that echoes every message, answers pings and answers a close.
    public static func echo() throws -> WebSocketTestServer {
        try WebSocketTestServer { peer in
            try peer.accept()
            try peer.echoUntilClose()
        }
    }
}

/// The server side of one test connection.
/// Unchecked: used by the one connection thread its handler runs on (Sendable only so a handler
/// closure may capture it).
public final class WebSocketPeer: @unchecked Sendable {
    /// A frame the client sent, unmasked.
    public struct Frame: Sendable, Equatable {
        /// The opcode's number.
        public var opcode: UInt8
        /// The FIN bit.
        public var isFinal: Bool
        /// The payload.
        public var payload: [UInt8]
    }

    /// Protocol failures of the peer's own reads.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The upgrade request.
    public let request: ScriptedServer.Request
    private let fd: Int32
    private var reader = WebSocketFrameReader(role: .server, maximumFrameBytes: 256 << 20)

    init(fd: Int32, request: ScriptedServer.Request, buffered: [UInt8]) {
        self.fd = fd
        self.request = request
        reader.append(buffered)
    }

    /// The accept key the request's `Sec-WebSocket-Key` calls for.
    public var expectedAccept: String { WebSocketHandshake.accept(for: request.headers["Sec-WebSocket-Key"] ?? "") }

    /// Answers 101 with the right accept key (or `acceptKey`), and `extraFields` lines.
    public func accept(acceptKey: String? = nil, extraFields: [String] = []) throws {
        var lines = ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Accept: \(acceptKey ?? expectedAccept)"]
        lines += extraFields
        try write(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Answers with `status` and closes.
    public func refuse(_ status: Int, reason: String = "Refused") throws {
        try write(Array("HTTP/1.1 \(status) \(reason)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
    }

    /// Sends one frame. `masked` (forbidden from a server) and `reservedBits` make broken ones.
    public func send(opcode: UInt8, _ payload: [UInt8], isFinal: Bool = true, masked: Bool = false, reservedBits: UInt8 = 0) throws {
        var bytes: [UInt8] = []
        let opcodeValue = WebSocketOpcode(rawValue: opcode) ?? .binary
        WebSocketFrame.encode(isFinal: isFinal, opcode: opcodeValue, payload: payload, mask: masked ? 0x1234_5678 : nil, into: &bytes)
        bytes[0] = (bytes[0] & 0xF0) | (opcode & 0x0F) | (reservedBits & 0x70)
        try write(bytes)
    }

    /// Sends a text message in one frame.
    public func send(text: String) throws { try send(opcode: 0x1, Array(text.utf8)) }

    /// Sends a close frame with `code` and `reason`.
    public func sendClose(_ code: UInt16, reason: String = "") throws {
        try send(opcode: 0x8, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// Sends exact bytes.
    public func write(_ bytes: [UInt8]) throws {
        guard SocketReader.sendAll(fd, bytes) else { throw Failure(description: "send failed") }
    }

    /// The client's next frame, or nil at the end of the stream.
    /// - Throws: `Failure` when the client breaks the protocol (an unmasked frame…).
    public func receive() throws -> Frame? {
        while true {
            do {
                if let frame = try reader.next() {
                    return Frame(opcode: frame.opcode.rawValue, isFinal: frame.isFinal, payload: Array(frame.payload))
                }
            } catch {
                throw Failure(description: error.message)
            }
            let n = reader.receive(upTo: 256 << 10) { raw in recv(fd, raw.baseAddress, raw.count, 0) }
            guard let n, n > 0 else { return nil }
        }
    }

    /// Echoes messages (fragments joined, sent back whole), answers pings, and answers a close
    /// with the same code; returns after the close or at the end of the stream.
    public func echoUntilClose() throws {
        var message: (opcode: UInt8, bytes: [UInt8])?
        while let frame = try receive() {
            switch frame.opcode {
            case 0x9: try send(opcode: 0xA, frame.payload)
            case 0x8:
                try send(opcode: 0x8, frame.payload)
                return
            case 0x1, 0x2:
                message = (frame.opcode, frame.payload)
            case 0x0:
                message?.bytes += frame.payload
            default: break
            }
            if frame.isFinal, frame.opcode <= 0x2, let whole = message {
                try send(opcode: whole.opcode, whole.bytes)
                message = nil
            }
        }
    }

    /// Reads until the client's close frame; returns its code (nil at the end of the stream).
    public func awaitClose() throws -> UInt16? {
        while let frame = try receive() {
            guard frame.opcode == 0x8 else { continue }
            return frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005
        }
        return nil
    }

    /// Ends the TCP connection now.
    public func closeTCP() { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
}
