import Testing
@testable import TesseraHTTP

@Suite("ServerSentEventDecoder")
struct ServerSentEventDecoderTests {
    private func decodeAll(_ text: String, chunk: Int) throws -> [ServerSentEvent] {
        var decoder = ServerSentEventDecoder()
        let bytes = Array(text.utf8)
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            events += try decoder.feed(bytes[start..<end])
            start = end
        }
        decoder.finish()
        return events
    }

    let stream = "\u{FEFF}: comment\r\nevent: add\r\ndata: one\r\ndata:two\r\nid: 7\r\n\r\ndata\n\nretry: 1500\nunknown: x\ndata: 3\r\rdata: dropped"

    @Test("fields, multi-line data, ids that persist, comments, BOM and all three line endings, in every chunking")
    func standard() throws {
        let expected = [
            ServerSentEvent(type: "add", data: "one\ntwo", lastEventID: "7"),
            ServerSentEvent(data: "", lastEventID: "7"),
            ServerSentEvent(data: "3", lastEventID: "7"),
        ]
        for chunk in [1, 2, 3, 7, 1000] {
            #expect(try decodeAll(stream, chunk: chunk) == expected, "chunk \(chunk)")
        }
    }

    @Test("retry keeps only all-digit values; an id with NUL is ignored; a blank line without data dispatches nothing")
    func fieldRules() throws {
        var decoder = ServerSentEventDecoder()
        let events = try decoder.feed(Array("retry: 10x\nid: a\u{0}b\nevent: e\n\nretry: 250\ndata: d\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "d")])
        #expect(decoder.retryMilliseconds == 250)
    }

    @Test("a line or an event beyond the bound is a typed error, not unbounded memory")
    func bounded() {
        var decoder = ServerSentEventDecoder(maximumBytes: 16)
        #expect(throws: HTTPError.self) { _ = try decoder.feed(Array(repeating: UInt8(ascii: "a"), count: 17)) }
        var events = ServerSentEventDecoder(maximumBytes: 16)
        #expect(throws: HTTPError.self) { _ = try events.feed(Array("data: 0123456789\ndata: 0123456789\n".utf8)) }
    }
}
