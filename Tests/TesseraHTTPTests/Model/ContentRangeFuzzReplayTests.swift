import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("Content-Range fuzz inputs")
struct ContentRangeFuzzReplayTests {
    @Test("every saved input parses to a self-consistent range or is rejected (what FuzzContentRange checks)")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzContentRange")
        #expect(!inputs.isEmpty, "the FuzzContentRange corpus is empty")
        var accepted = 0
        for bytes in inputs {
            guard let range = ContentRange(headerValue: String(decoding: bytes, as: UTF8.self)) else { continue }
            accepted += 1
            #expect(range.first <= range.last)
            #expect(range.completeLength.map { range.last < $0 } ?? true)
        }
        #expect(accepted > 0, "no saved input is a valid Content-Range, so the invariants were never checked")
    }
}
