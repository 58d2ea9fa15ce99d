import TesseraTestSupport
import Testing
@testable import TesseraHTTP

@Suite("Event stream fuzz replay")
struct EventStreamFuzzReplayTests {
    /// What decoding gave: the items, or the error code (the size bound is a legitimate outcome).
    enum Outcome<Item: Equatable>: Equatable {
        case items([Item])
        case failed(String)
    }

    private func decode<D: IncrementalBodyDecoder>(_ decoder: D, _ chunks: [[UInt8]]) -> Outcome<D.Item> where D.Item: Equatable {
        var decoder = decoder
        var items: [D.Item] = []
        do throws(HTTPError) {
            for chunk in chunks { items += try decoder.feed(chunk) }
        } catch {
            return .failed(error.code.rawValue)
        }
        return .items(items + decoder.end())
    }

    @Test("every saved fuzz input decodes to the same SSE events and NDJSON records whole and byte by byte")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzEventStreams")
        #expect(!inputs.isEmpty)
        for input in inputs {
            let body = Array(input.dropFirst())
            let bytes = body.map { [$0] }
            let events = ServerSentEventDecoder(maximumBytes: 256)
            #expect(decode(events, [body]) == decode(events, bytes))
            let records = NDJSONLineDecoder(maximumBytes: 256)
            #expect(decode(records, [body]) == decode(records, bytes))
        }
    }
}
