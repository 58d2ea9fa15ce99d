/// Cuts frames out of the bytes a connection receives (RFC 6455 §5.2), checking what a client
/// must refuse from a server — or, in the server role (test peers), from a client.
///
/// Refused: reserved bits set (no extension is negotiated; permessage-deflate is not offered),
/// reserved opcodes, control frames that are fragmented or over 125 bytes, a frame masked the
/// wrong way for its sender, a 64-bit length with its top bit set, a frame over `maximumFrameBytes`
/// (refused from its header, before the payload is buffered).
package struct WebSocketFrameReader {
    /// Who reads: a client expects unmasked frames, a server masked ones.
    package enum Role: Sendable { case client, server }

    let role: Role
    let maximumFrameBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0

    package init(role: Role, maximumFrameBytes: Int) {
        self.role = role
        self.maximumFrameBytes = maximumFrameBytes
    }

    /// Bytes received but not yet cut into frames.
    package var bufferedBytes: Int { buffer.count - start }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    /// The next complete frame, or nil until more bytes arrive.
    /// - Throws: `WebSocketProtocolViolation` for a frame the peer must not send.
    package mutating func next() throws(WebSocketProtocolViolation) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else {
            throw .protocolError("A frame set reserved bits (0x\(String(first & 0x70, radix: 16))) though no extension was negotiated.")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .protocolError("A frame used the reserved opcode 0x\(String(first & 0x0F, radix: 16)).")
        }
        let isFinal = first & 0x80 != 0
        let isMasked = second & 0x80 != 0
        switch (role, isMasked) {
        case (.client, true): throw .protocolError("The server sent a masked frame (a server's frames are never masked).")
        case (.server, false): throw .protocolError("The client sent an unmasked frame (a client's frames are always masked).")
        default: break
        }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for i in 2..<10 { length = length << 8 | UInt64(buffer[start + i]) }
            guard length >> 63 == 0 else { throw .protocolError("A frame's 64-bit length has its most significant bit set.") }
            headerLength = 10
        }
        if opcode.isControl {
            guard isFinal else { throw .protocolError("A \(opcode) control frame was fragmented.") }
            guard length <= 125 else { throw .protocolError("A \(opcode) control frame carries \(length) bytes (at most 125).") }
        }
        guard length <= UInt64(maximumFrameBytes) else {
            throw WebSocketProtocolViolation(closeCode: .messageTooBig,
                                             message: "A frame of \(length) bytes is over the limit of \(maximumFrameBytes).")
        }
        let maskLength = isMasked ? 4 : 0
        let total = headerLength + maskLength + Int(length)
        guard available >= total else { return nil }
        let payloadStart = start + headerLength + maskLength
        var payload = Array(buffer[payloadStart..<(payloadStart + Int(length))])
        if isMasked {
            let key = Array(buffer[(start + headerLength)..<(start + headerLength + 4)])
            payload.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, to: $0) }
        }
        start += total
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        }
        return WebSocketFrame(isFinal: isFinal, opcode: opcode, payload: payload)
    }
}
