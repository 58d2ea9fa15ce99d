#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Joins data frames into messages (RFC 6455 §5.4): a text or binary frame starts a message,
/// continuation frames extend it, the final frame ends it. Control frames never reach it (they may
/// arrive between fragments). Text is checked as UTF-8 when the message is whole (§8.1).
struct WebSocketMessageAssembler {
    let maximumMessageBytes: Int
    private var opcode: WebSocketOpcode?
    private var parts: [UInt8] = []

    init(maximumMessageBytes: Int) { self.maximumMessageBytes = maximumMessageBytes }

    /// True while a fragmented message is incomplete.
    var isInsideMessage: Bool { opcode != nil }

    /// Takes a data frame; returns the message it completes, if any.
    /// - Throws: `WebSocketProtocolViolation` for a continuation with no message, a new message
    ///   inside a fragmented one, a message over the limit, or text that is not UTF-8.
    mutating func take(_ frame: WebSocketFrame) throws(WebSocketProtocolViolation) -> WebSocketMessage? {
        switch frame.opcode {
        case .continuation:
            guard opcode != nil else { throw .protocolError("A continuation frame arrived with no message to continue.") }
        case .text, .binary:
            guard opcode == nil else {
                throw .protocolError("A new \(frame.opcode) message began inside a fragmented message.")
            }
            if frame.isFinal { return try Self.message(frame.opcode, frame.payload, limit: maximumMessageBytes) }
            opcode = frame.opcode
        default:
            preconditionFailure("control frames are not assembled")
        }
        guard parts.count + frame.payload.count <= maximumMessageBytes else {
            throw WebSocketProtocolViolation(closeCode: .messageTooBig,
                                             message: "A message grew past the limit of \(maximumMessageBytes) bytes.")
        }
        parts.append(contentsOf: frame.payload)
        guard frame.isFinal, let kind = opcode else { return nil }
        defer {
            opcode = nil
            parts = []
        }
        return try Self.message(kind, parts[...], limit: maximumMessageBytes)
    }

    private static func message(_ opcode: WebSocketOpcode, _ bytes: ArraySlice<UInt8>, limit: Int) throws(WebSocketProtocolViolation) -> WebSocketMessage {
        guard bytes.count <= limit else {
            throw WebSocketProtocolViolation(closeCode: .messageTooBig, message: "A message of \(bytes.count) bytes is over the limit of \(limit).")
        }
        guard opcode == .text else { return .binary(Data(bytes)) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw WebSocketProtocolViolation(closeCode: .invalidPayload, message: "A text message is not valid UTF-8.")
        }
        return .text(text)
    }
}
