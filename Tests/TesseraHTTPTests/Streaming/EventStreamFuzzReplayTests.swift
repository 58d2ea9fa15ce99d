import TesseraTestSupport
import Testing
@testable import TesseraHTTP

@Suite("Event stream fuzz replay")
struct EventStreamFuzzReplayTests {
    @Test("every saved fuzz input decodes to the same events whole and byte by byte")
    func replay() throws {
        for input in try FuzzInputs.inputs("FuzzEventStreams") {
            var whole = ServerSentEventDecoder(maximumBytes: 256), bytewise = whole
            let body = input.dropFirst()
            let wholeEvents = try? whole.feed(body)
            var byteEvents: [ServerSentEvent]? = []
            for byte in body { byteEvents = byteEvents.flatMap { events in (try? bytewise.feed([byte])).map { events + $0 } } }
            #expect(wholeEvents == byteEvents)
            var lines = NDJSONLineDecoder(maximumBytes: 256)
            _ = try? lines.feed(body)
        }
        #expect(!FuzzInputs.files("FuzzEventStreams").isEmpty)
    }
}
