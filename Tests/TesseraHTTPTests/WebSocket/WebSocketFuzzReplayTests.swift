import TesseraTestSupport
import Testing
@testable import TesseraHTTP

@Suite("WebSocket fuzz replay")
struct WebSocketFuzzReplayTests {
    /// The frames the wire holds, fed `step` bytes a receive, then the violation if one stopped it.
    private func frames(_ wire: [UInt8], role: WebSocketFrameReader.Role, limit: Int, step: Int) -> ([WebSocketFrame], WebSocketProtocolViolation?) {
        var reader = WebSocketFrameReader(role: role, maximumFrameBytes: limit)
        var frames: [WebSocketFrame] = []
        var offset = 0
        while true {
            do throws(WebSocketProtocolViolation) {
                while let frame = try reader.next() { frames.append(frame) }
            } catch {
                return (frames, error)
            }
            guard offset < wire.count else { return (frames, nil) }
            _ = reader.receive(upTo: step) { room -> Int? in
                let count = min(room.count, wire.count - offset)
                wire.withUnsafeBytes { room.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
                offset += count
                return count
            }
        }
    }

    @Test("every saved FuzzWebSocket input reads to the same frames, or the same violation, whole and byte by byte")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzWebSocket")
        #expect(!inputs.isEmpty)
        for input in inputs where input.count >= 2 {
            let wire = Array(input.dropFirst(2))
            let role: WebSocketFrameReader.Role = input[1] & 1 == 0 ? .client : .server
            let limit = input[1] & 2 == 0 ? 1 << 16 : 300
            let whole = frames(wire, role: role, limit: limit, step: max(1, wire.count))
            let bytes = frames(wire, role: role, limit: limit, step: 1)
            #expect(whole.0 == bytes.0 && whole.1 == bytes.1)
        }
    }
}
