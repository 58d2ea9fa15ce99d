@testable import TesseraHTTP

/// Bytes from a hostile WebSocket peer. The first byte picks how many bytes each receive hands
/// the frame reader, the second its role and frame limit; the rest is the wire. Frames are cut
/// and joined into messages (close payloads parsed) with the bytes arriving whole and in pieces:
/// both must give the same frames, messages and violation; every frame keeps the reader's bounds.
/// The same bytes are also an upgrade answer for the response-head parser.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let step = Int(data[0] % 61) + 1
    let role: WebSocketFrameReader.Role = data[1] & 1 == 0 ? .client : .server
    let frameLimit = data[1] & 2 == 0 ? 1 << 16 : 300
    let wire = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let whole = read(wire, role: role, frameLimit: frameLimit, step: max(1, wire.count))
    precondition(whole == read(wire, role: role, frameLimit: frameLimit, step: step), "frames depend on how the bytes arrive")
    for limit in [64, 16 << 10] {
        guard let (head, consumed) = try? WebSocketResponseHead.parse(wire, limit: limit) else { continue }
        precondition(consumed <= wire.count && consumed <= limit, "a head consumed past its input or limit")
        precondition(try! WebSocketResponseHead.parse(Array(wire[..<consumed]), limit: limit)! == (head, consumed),
                     "a head parses differently without the bytes after it")
    }
    return 0
}

/// What the reader and the assembler made of the wire.
struct Outcome: Equatable {
    var frames: [WebSocketFrame] = []
    var messages: [WebSocketMessage] = []
    var closes: [WebSocketCloseFrame?] = []
    var violation: WebSocketProtocolViolation?
}

func read(_ wire: [UInt8], role: WebSocketFrameReader.Role, frameLimit: Int, step: Int) -> Outcome {
    var reader = WebSocketFrameReader(role: role, maximumFrameBytes: frameLimit)
    var assembler = WebSocketMessageAssembler(maximumMessageBytes: 1000)
    var outcome = Outcome()
    var offset = 0
    while true {
        do throws(WebSocketProtocolViolation) {
            while let frame = try reader.next() {
                precondition(frame.payload.count <= frameLimit, "a frame past the limit")
                if frame.opcode.isControl {
                    precondition(frame.isFinal && frame.payload.count <= 125, "a fragmented or long control frame")
                    if frame.opcode == .close { outcome.closes.append(try? WebSocketCloseFrame(payload: Array(frame.payload))) }
                } else if let message = try assembler.take(frame) {
                    outcome.messages.append(message)
                }
                outcome.frames.append(WebSocketFrame(isFinal: frame.isFinal, opcode: frame.opcode, payload: Array(frame.payload)))
            }
        } catch {
            outcome.violation = error
            return outcome
        }
        guard offset < wire.count else {
            precondition(reader.bufferedBytes <= wire.count, "the reader invented bytes")
            return outcome
        }
        _ = reader.receive(upTo: step) { room -> Int? in
            let count = min(room.count, wire.count - offset)
            wire.withUnsafeBytes { room.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
            offset += count
            return count
        }
    }
}
