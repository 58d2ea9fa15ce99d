import Foundation
import Testing
@testable import TesseraHTTP

@Suite("HTTPEventStream")
struct HTTPEventStreamTests {
    let url = URL(string: "https://user:pw@cdn.example/a.m3u8?token=secret#x")!

    @Test("events carry the event form of the URL, never credentials or query values")
    func redacted() {
        let event = HTTPEvent(requestID: 1, method: "GET", url: url, kind: .start, elapsed: .zero)
        #expect(event.url == "https://cdn.example/a.m3u8?token=<redacted>")
    }

    @Test("a slow consumer loses the oldest events, counted; emitting never blocks")
    func bounded() async {
        let stream = HTTPEventStream(capacity: 3)
        for id in 1...10 { stream.emit(HTTPEvent(requestID: UInt64(id), method: "GET", url: url, kind: .start, elapsed: .zero)) }
        stream.finish()
        var ids: [UInt64] = []
        for await event in stream.events { ids.append(event.requestID) }
        #expect(ids == [8, 9, 10])
        #expect(stream.dropped == 7)
    }
}
