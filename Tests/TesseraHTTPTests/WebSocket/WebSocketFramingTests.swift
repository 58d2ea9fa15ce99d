import Foundation
import Testing
@testable import TesseraHTTP

@Suite("WebSocket framing (RFC 6455 §5)")
struct WebSocketFramingTests {
    private func frames(_ bytes: [UInt8], role: WebSocketFrameReader.Role = .client, limit: Int = 1 << 20) throws(WebSocketProtocolViolation) -> [WebSocketFrame] {
        var reader = WebSocketFrameReader(role: role, maximumFrameBytes: limit)
        reader.append(bytes)
        var out: [WebSocketFrame] = []
        while let frame = try reader.next() { out.append(frame) }
        return out
    }

    @Test("masked frames of every length class read back equal in the server role, byte by byte")
    func roundTrip() throws {
        for count in [0, 1, 125, 126, 127, 65_535, 65_536, 200_000] {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var bytes: [UInt8] = []
            WebSocketFrame.encode(isFinal: true, opcode: .binary, payload: payload, mask: 0xA1B2_C3D4, into: &bytes)
            #expect(Array(bytes[bytes.count - count..<bytes.count]) != payload || count == 0)   // masked on the wire
            var reader = WebSocketFrameReader(role: .server, maximumFrameBytes: 1 << 20)
            var read: [WebSocketFrame] = []
            for byte in bytes {   // one byte at a time: partial headers and payloads wait
                reader.append([byte])
                if let frame = try reader.next() { read.append(frame) }
            }
            #expect(read == [WebSocketFrame(isFinal: true, opcode: .binary, payload: payload)], "length \(count)")
        }
    }

    @Test("the RFC's examples: an unmasked \"Hello\", a masked one, a fragmented one, a ping")
    func rfcExamples() throws {
        #expect(try frames([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == [.init(isFinal: true, opcode: .text, payload: Array("Hello".utf8))])
        #expect(try frames([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58], role: .server)
            == [.init(isFinal: true, opcode: .text, payload: Array("Hello".utf8))])
        #expect(try frames([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F])
            == [.init(isFinal: false, opcode: .text, payload: Array("Hel".utf8)), .init(isFinal: true, opcode: .continuation, payload: Array("lo".utf8))])
        #expect(try frames([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == [.init(isFinal: true, opcode: .ping, payload: Array("Hello".utf8))])
        var masked: [UInt8] = []
        WebSocketFrame.encode(isFinal: true, opcode: .text, payload: Array("Hello".utf8), mask: 0x37FA_213D, into: &masked)
        #expect(masked == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test("a client refuses what a server must not send", arguments: [
        ([0x81, 0x85, 1, 2, 3, 4, 0, 0, 0, 0, 0] as [UInt8], WebSocketCloseCode.protocolError, "masked"),
        ([0xC1, 0x00], .protocolError, "reserved bits"),
        ([0x83, 0x00], .protocolError, "reserved opcode"),
        ([0x09, 0x00], .protocolError, "fragmented"),
        ([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), .protocolError, "at most 125"),
        ([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], .protocolError, "most significant bit"),
        ([0x82, 0x7F, 0, 0, 0, 0, 0, 0x10, 0, 1], .messageTooBig, "over the limit"),
    ])
    func refusals(bytes: [UInt8], code: WebSocketCloseCode, says: String) {
        #expect {
            _ = try frames(bytes)
        } throws: { error in
            let violation = error as? WebSocketProtocolViolation
            return violation?.closeCode == code && violation?.message.contains(says) == true
        }
    }

    @Test("frames received straight into the reader: split anywhere across receives of any size, in order, a kept payload unchanged by later receives")
    func receiveInPlace() throws {
        var wire: [UInt8] = []
        var sent: [WebSocketFrame] = []
        for (index, count) in [3, 70_000, 0, 1 << 20, 125, 300_000, 5].enumerated() {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            WebSocketFrame.encode(isFinal: true, opcode: .binary, payload: payload, mask: 0x0102_0304, into: &wire)
            sent.append(WebSocketFrame(isFinal: true, opcode: .binary, payload: payload))
        }
        for step in [13, 999, 65_536, 1 << 20, 5 << 20] {   // what each receive is allowed to write
            var reader = WebSocketFrameReader(role: .server, maximumFrameBytes: 2 << 20)
            var offset = 0
            var read: [WebSocketFrame] = []
            while read.count < sent.count {
                if let frame = try reader.next() {
                    read.append(frame)
                    continue
                }
                let received = reader.receive(upTo: step) { room -> Int? in
                    let count = min(room.count, wire.count - offset)
                    guard count > 0 else { return nil }
                    wire.withUnsafeBytes { room.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
                    offset += count
                    return count
                }
                try #require(received != nil, "the reader asked for more than the wire holds (step \(step))")
            }
            #expect(read == sent && offset == wire.count && reader.bufferedBytes == 0, "step \(step)")
        }
    }

    @Test("the mask is the RFC's byte-by-byte XOR at every length and alignment")
    func maskingMatchesTheDefinition() {
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        let source = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for offset in 0..<3 {
            for count in [0, 1, 3, 4, 31, 32, 33, 64, 65, 100, 297] {
                var bytes = source
                bytes.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, to: UnsafeMutableRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
                let expected = source.indices.map { i in (offset..<(offset + count)).contains(i) ? source[i] ^ key[(i - offset) % 4] : source[i] }
                #expect(bytes == expected, "offset \(offset), count \(count)")
            }
        }
    }

    @Test("a server refuses an unmasked client frame")
    func serverWantsMasks() {
        #expect(throws: WebSocketProtocolViolation.self) { _ = try frames([0x81, 0x00], role: .server) }
    }

    @Test("an oversized frame is refused from its header, before its payload arrives")
    func oversizeFromHeader() {
        var reader = WebSocketFrameReader(role: .client, maximumFrameBytes: 1000)
        reader.append([0x82, 0x7E, 0x03, 0xE9])   // 1001 bytes announced, none sent
        #expect(throws: WebSocketProtocolViolation(closeCode: .messageTooBig, message: "A frame of 1001 bytes is over the limit of 1000.")) {
            _ = try reader.next()
        }
    }

    @Test("fragments join; text is checked as UTF-8 when whole, split inside a character")
    func assembly() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageBytes: 100)
        let snowman = Array("a☃b".utf8)   // the 3-byte character is split across the fragments
        #expect(try assembler.take(.init(isFinal: false, opcode: .text, payload: Array(snowman[0..<2]))) == nil)
        #expect(assembler.isInsideMessage)
        #expect(try assembler.take(.init(isFinal: true, opcode: .continuation, payload: Array(snowman[2...]))) == .text("a☃b"))
        #expect(try assembler.take(.init(isFinal: true, opcode: .binary, payload: [1, 2])) == .binary(Data([1, 2])))
    }

    @Test("assembly refusals: a stray continuation, a message inside a message, bad UTF-8, too big")
    func assemblyRefusals() throws {
        var a = WebSocketMessageAssembler(maximumMessageBytes: 4)
        #expect(throws: WebSocketProtocolViolation.self) { try a.take(.init(isFinal: true, opcode: .continuation, payload: [])) }
        _ = try a.take(.init(isFinal: false, opcode: .binary, payload: [1]))
        #expect(throws: WebSocketProtocolViolation.self) { try a.take(.init(isFinal: true, opcode: .text, payload: [])) }
        var b = WebSocketMessageAssembler(maximumMessageBytes: 4)
        #expect(throws: WebSocketProtocolViolation(closeCode: .invalidPayload, message: "A text message is not valid UTF-8.")) {
            try b.take(.init(isFinal: true, opcode: .text, payload: [0xC3, 0x28]))
        }
        var c = WebSocketMessageAssembler(maximumMessageBytes: 4)
        _ = try c.take(.init(isFinal: false, opcode: .binary, payload: [1, 2, 3]))
        #expect { try c.take(.init(isFinal: true, opcode: .continuation, payload: [4, 5])) } throws: {
            ($0 as? WebSocketProtocolViolation)?.closeCode == .messageTooBig
        }
    }

    @Test("close payloads: empty is 1005, one byte and reserved codes are refused, reasons must be UTF-8 and fit")
    func closeFrames() throws {
        #expect(try WebSocketCloseFrame(payload: []).code == nil)
        #expect(try WebSocketCloseFrame(payload: [0x03, 0xE8, 0x6F, 0x6B]) == WebSocketCloseFrame(code: .normalClosure, reason: "ok"))
        #expect(throws: WebSocketProtocolViolation.self) { try WebSocketCloseFrame(payload: [0x03]) }
        for reserved: UInt16 in [999, 1004, 1005, 1006, 1015, 2999, 5000] {
            #expect(throws: WebSocketProtocolViolation.self) { try WebSocketCloseFrame(payload: [UInt8(reserved >> 8), UInt8(reserved & 0xFF)]) }
        }
        #expect { try WebSocketCloseFrame(payload: [0x03, 0xE8, 0xFF]) } throws: { ($0 as? WebSocketProtocolViolation)?.closeCode == .invalidPayload }
        let long = WebSocketCloseFrame(code: .goingAway, reason: String(repeating: "é", count: 100)).payload
        #expect(long.count == 2 + 122 && String(validating: long.dropFirst(2), as: UTF8.self) != nil)
    }

    @Test("the handshake: the RFC's accept example, the request's fields, and refusals of owned fields")
    func handshake() throws {
        #expect(WebSocketHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let h = try WebSocketHandshake(url: URL(string: "wss://example.com:8443/chat?room=1")!, headers: ["Origin": "https://a.test"], protocols: ["v1", "v2"])
        let text = String(decoding: h.requestBytes, as: UTF8.self)
        #expect(text.hasPrefix("GET /chat?room=1 HTTP/1.1\r\nHost: example.com:8443\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"))
        #expect(text.contains("Sec-WebSocket-Version: 13\r\n") && text.contains("Sec-WebSocket-Protocol: v1, v2\r\n") && text.hasSuffix("Origin: https://a.test\r\n\r\n"))
        #expect(Data(base64Encoded: h.key)?.count == 16)
        let other = try WebSocketHandshake(url: URL(string: "ws://example.com/")!, headers: [:], protocols: [])
        #expect(other.key != h.key)
        #expect(String(decoding: other.requestBytes, as: UTF8.self).contains("Host: example.com\r\n"))
        for bad: HTTPHeaders in [["Sec-WebSocket-Key": "x"], ["Host": "evil"], ["X-A": "1\r\nX-B: 2"], ["Bad Name": "1"]] {
            #expect(throws: HTTPError.self) { _ = try WebSocketHandshake(url: URL(string: "ws://example.com/")!, headers: bad, protocols: []) }
        }
        #expect(throws: HTTPError.self) { _ = try WebSocketHandshake(url: URL(string: "ws://example.com/")!, headers: [:], protocols: ["a b"]) }
    }

    @Test("the 101's checks: status, Upgrade, Connection, accept, extensions, subprotocol")
    func verdicts() throws {
        let h = try WebSocketHandshake(url: URL(string: "ws://example.com/")!, headers: [:], protocols: ["v1"])
        let good: HTTPHeaders = ["Upgrade": "WebSocket", "Connection": "keep-alive, Upgrade", "Sec-WebSocket-Accept": WebSocketHandshake.accept(for: h.key)]
        func head(_ headers: HTTPHeaders, status: Int = 101) -> WebSocketResponseHead { .init(status: status, reasonPhrase: "", headers: headers) }
        #expect(try h.verdict(on: head(good)).get() == nil)
        var chosen = good
        chosen.add("Sec-WebSocket-Protocol", "v1")
        #expect(try h.verdict(on: head(chosen)).get() == "v1")
        func kind(_ r: Result<String?, WebSocketClose>) -> WebSocketClose.Kind? { if case .failure(let c) = r { c.kind } else { nil } }
        #expect(kind(h.verdict(on: head(good, status: 404))) == .handshakeRefused)
        var wrong = good
        wrong.set("Sec-WebSocket-Accept", "AAAA")
        #expect(kind(h.verdict(on: head(wrong))) == .handshakeInvalid)
        var deflate = good
        deflate.add("Sec-WebSocket-Extensions", "permessage-deflate")
        #expect(kind(h.verdict(on: head(deflate))) == .handshakeInvalid)
        var unoffered = good
        unoffered.add("Sec-WebSocket-Protocol", "v9")
        #expect(kind(h.verdict(on: head(unoffered))) == .handshakeInvalid)
        var noUpgrade = good
        noUpgrade.remove("Upgrade")
        #expect(kind(h.verdict(on: head(noUpgrade))) == .handshakeInvalid)
    }

    @Test("the response head: parsed across partial arrivals, bounded, garbage refused")
    func responseHead() throws {
        let bytes = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\u{81}".utf8)
        #expect(try WebSocketResponseHead.parse(Array(bytes[0..<20]), limit: 1000) == nil)
        let (head, consumed) = try #require(try WebSocketResponseHead.parse(bytes, limit: 1000))
        #expect(head.status == 101 && head.headers["upgrade"] == "websocket" && consumed == bytes.count - 2)
        #expect(throws: WebSocketClose.self) { _ = try WebSocketResponseHead.parse([UInt8](repeating: 0x41, count: 2000), limit: 1000) }
        #expect(throws: WebSocketClose.self) { _ = try WebSocketResponseHead.parse(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8), limit: 1000) }
    }
}
