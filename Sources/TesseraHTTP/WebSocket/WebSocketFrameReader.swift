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
    /// Received bytes live in `buffer[start..<end]`; `buffer[end...]` is room for the next
    /// receive, which writes there directly. The storage is kept between frames up to
    /// `retainedBytes`, so a stream of large messages does not allocate (and fault in) a fresh
    /// buffer for each.
    private var buffer: [UInt8] = []
    private var start = 0
    private var end = 0
    /// The whole size of the frame `next()` last found incomplete (0: none known).
    private var awaitedFrameBytes = 0

    /// The most storage kept once every byte has been cut into frames.
    static let retainedBytes = 4 << 20
    /// The least room a receive is given.
    static let minimumReceiveBytes = 64 << 10

    package init(role: Role, maximumFrameBytes: Int) {
        self.role = role
        self.maximumFrameBytes = maximumFrameBytes
    }

    /// Bytes received but not yet cut into frames.
    package var bufferedBytes: Int { end - start }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        makeRoom(bytes.count)
        buffer.withUnsafeMutableBytes { raw in
            UnsafeMutableRawBufferPointer(rebasing: raw[end..<(end + bytes.count)]).copyMemory(from: bytes)
        }
        end += bytes.count
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    /// Lets `receive` write up to `limit` bytes straight into the buffer's room (at least
    /// `minimumReceiveBytes`, or what the frame being read still lacks), and keeps the count it
    /// returns; nil (nothing arrived) keeps nothing.
    package mutating func receive<Failure: Error>(
        upTo limit: Int, _ receive: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int?
    ) throws(Failure) -> Int? {
        makeRoom(max(Self.minimumReceiveBytes, awaitedFrameBytes - bufferedBytes))
        let room = min(limit, buffer.count - end)
        let received = try buffer.withUnsafeMutableBytes { [end] raw in
            Result { () throws(Failure) in try receive(UnsafeMutableRawBufferPointer(rebasing: raw[end..<(end + room)])) }
        }.get()
        if let received, received > 0 { end += min(received, room) }
        return received
    }

    /// Makes `buffer[end...]` at least `count` bytes: first by moving the unread bytes to the
    /// front, then by growing the storage (at least doubling it).
    private mutating func makeRoom(_ count: Int) {
        if start == end, start > 0 {
            start = 0
            end = 0
            if buffer.count > Self.retainedBytes { buffer = [] }
        }
        guard buffer.count - end < count else { return }
        if start > 0 {
            let unread = end - start
            buffer.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                base.copyMemory(from: base + start, byteCount: unread)
            }
            start = 0
            end = unread
            guard buffer.count - end < count else { return }
        }
        // New zeroed storage and one copy of the bytes kept: no per-byte generic code (appending
        // a `repeatElement` is per byte unoptimised, and each byte took the runtime's metadata
        // lock — a debug or sanitizer build's threads all queued on it), and no copy-on-write
        // of the old storage when a delivered payload still views it.
        var grown = [UInt8](repeating: 0, count: max(buffer.count * 2, end + count))
        if end > 0 {
            grown.withUnsafeMutableBytes { target in
                buffer.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: target[..<end]).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<end]))
                }
            }
        }
        buffer = grown
    }

    /// The next complete frame, or nil until more bytes arrive.
    /// - Throws: `WebSocketProtocolViolation` for a frame the peer must not send.
    package mutating func next() throws(WebSocketProtocolViolation) -> WebSocketFrame? {
        let available = end - start
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
        guard available >= total else {
            awaitedFrameBytes = total
            return nil
        }
        awaitedFrameBytes = 0
        let payloadStart = start + headerLength + maskLength
        let payloadRange = payloadStart..<(payloadStart + Int(length))
        if isMasked {   // unmasked where it lies: those bytes are read once
            let key = Array(buffer[(start + headerLength)..<(start + headerLength + 4)])
            buffer.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, to: UnsafeMutableRawBufferPointer(rebasing: $0[payloadRange])) }
        }
        start += total
        // A view of the buffer, not a copy: the caller takes what it keeps before the next receive.
        return WebSocketFrame(isFinal: isFinal, opcode: opcode, payload: buffer[payloadRange])
    }
}
