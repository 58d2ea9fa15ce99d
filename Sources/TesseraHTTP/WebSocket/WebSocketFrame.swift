/// One frame as read off the wire, unmasked (RFC 6455 §5.2).
package struct WebSocketFrame: Sendable, Equatable {
    /// True on the last frame of a message (always on control frames).
    package var isFinal: Bool
    package var opcode: WebSocketOpcode
    /// The payload. From a reader it is a view of the reader's buffer: one kept past the reader's
    /// next receive makes that receive copy the buffer.
    package var payload: ArraySlice<UInt8>

    package init(isFinal: Bool, opcode: WebSocketOpcode, payload: ArraySlice<UInt8>) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
    }

    package init(isFinal: Bool, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.init(isFinal: isFinal, opcode: opcode, payload: payload[...])
    }

    /// Appends the frame to `output`: the header, then the payload masked with `mask` when one is
    /// given (a client's frames are always masked, a server's never, §5.3).
    package static func encode(isFinal: Bool, opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer,
                       mask: UInt32?, into output: inout [UInt8]) {
        output.append((isFinal ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        let count = payload.count
        if count < 126 {
            output.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            output.append(maskBit | 126)
            output.append(UInt8(count >> 8))
            output.append(UInt8(count & 0xFF))
        } else {
            output.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift))) }
        }
        guard let mask else {
            output.append(contentsOf: payload)
            return
        }
        let key = [UInt8(mask >> 24), UInt8((mask >> 16) & 0xFF), UInt8((mask >> 8) & 0xFF), UInt8(mask & 0xFF)]
        output.append(contentsOf: key)
        let start = output.count
        output.append(contentsOf: payload)
        output.withUnsafeMutableBytes { raw in
            WebSocketMasking.apply(key: key, to: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
        }
    }

    /// Appends a frame of `payload`'s bytes.
    package static func encode(isFinal: Bool = true, opcode: WebSocketOpcode, payload: [UInt8], mask: UInt32?, into output: inout [UInt8]) {
        payload.withUnsafeBytes { encode(isFinal: isFinal, opcode: opcode, payload: $0, mask: mask, into: &output) }
    }
}
