import Foundation
import TesseraTestSupport
import Testing
import TesseraHTTP

@Suite("Header value fuzz replay")
struct HeaderValueFuzzReplayTests {
    @Test("every saved input keeps the parsers' invariants (what FuzzHeaderValues checks)")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzHeaderValues")
        #expect(!inputs.isEmpty)
        for input in inputs where !input.isEmpty {
            let bytes = Array(input.dropFirst())
            let text = String(decoding: bytes, as: UTF8.self)
            switch input[0] % 5 {
            case 0:
                #expect(DownloadFileName.isSafe(DownloadFileName.choose(contentDisposition: text, url: URL(string: "https://example.com/a/file.bin")!)))
            case 1:
                #expect((RetryAfter(headerValue: text, now: 1_700_000_000)?.delay(now: 1_700_000_000) ?? .zero) >= .zero)
            case 2:
                _ = CacheControl(fieldValues: [text]).seconds("max-age")
            case 3:
                if let context = TraceParent(headerValue: text) { #expect(TraceParent(headerValue: context.description) == context) }
            default:
                let redacted = PayloadRedaction.redact(bytes, limit: 512)
                #expect(redacted.utf8.count <= 515)
            }
        }
    }
}
