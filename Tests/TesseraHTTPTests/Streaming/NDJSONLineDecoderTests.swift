import Foundation
import Testing
@testable import TesseraHTTP

@Suite("NDJSONLineDecoder")
struct NDJSONLineDecoderTests {
    struct Item: Decodable, Equatable { let n: Int }

    @Test("records split on LF or CRLF in any chunking; blank lines skipped; the last record needs no newline")
    func records() throws {
        let bytes = Array("{\"n\":1}\r\n\n  \n{\"n\":2}\n{\"n\":3}".utf8)
        for chunk in [1, 2, 5, 100] {
            var decoder = NDJSONLineDecoder()
            var records: [[UInt8]] = []
            var start = 0
            while start < bytes.count {
                records += try decoder.feed(bytes[start..<min(bytes.count, start + chunk)])
                start += chunk
            }
            if let last = decoder.finish() { records.append(last) }
            let items = try records.map { try JSONDecoder().decode(Item.self, from: Data($0)) }
            #expect(items == [Item(n: 1), Item(n: 2), Item(n: 3)], "chunk \(chunk)")
        }
    }

    @Test("a record beyond the bound is a typed error")
    func bounded() {
        var decoder = NDJSONLineDecoder(maximumBytes: 8)
        #expect(throws: HTTPError.self) { _ = try decoder.feed(Array("{\"n\":12345}\n".utf8)) }
    }
}
