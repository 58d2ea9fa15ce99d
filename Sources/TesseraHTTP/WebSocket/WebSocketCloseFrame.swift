/// A close frame's payload (RFC 6455 §5.5.1): an optional two-byte code, then a UTF-8 reason.
struct WebSocketCloseFrame: Sendable, Equatable {
    /// nil when the frame was empty (reported as 1005, never sent).
    var code: WebSocketCloseCode?
    var reason: String

    /// Parses a received close payload.
    /// - Throws: `WebSocketProtocolViolation` for one byte, a code no endpoint may send, or a
    ///   reason that is not UTF-8.
    init(payload: [UInt8]) throws(WebSocketProtocolViolation) {
        guard !payload.isEmpty else {
            code = nil
            reason = ""
            return
        }
        guard payload.count >= 2 else { throw .protocolError("A close frame carries one byte (a code is two).") }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isSendable else { throw .protocolError("A close frame carries the code \(code), which no endpoint may send.") }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw WebSocketProtocolViolation(closeCode: .invalidPayload, message: "A close frame's reason is not valid UTF-8.")
        }
        self.code = code
        self.reason = reason
    }

    init(code: WebSocketCloseCode?, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The payload to send: the code and the reason cut to fit 125 bytes on a character boundary.
    var payload: [UInt8] {
        guard let code else { return [] }
        var bytes = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var reasonBytes = 0
        for scalar in reason.unicodeScalars {
            let width = String(scalar).utf8.count
            guard reasonBytes + width <= 123 else { break }
            bytes.append(contentsOf: String(scalar).utf8)
            reasonBytes += width
        }
        return bytes
    }
}
