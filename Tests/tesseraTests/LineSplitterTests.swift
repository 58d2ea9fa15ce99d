import Testing
@testable import tessera

@Suite("LineSplitter: standard input's lines for tessera ws, bounded")
struct LineSplitterTests {
    private func split(_ pieces: [String], maximum: Int) -> [LineSplitter.Line] {
        var splitter = LineSplitter(maximumBytes: maximum)
        var lines = pieces.flatMap { splitter.feed(ArraySlice(Array($0.utf8))) }
        if let last = splitter.finish() { lines.append(last) }
        return lines
    }

    @Test("LF and CRLF ends stripped, a line split across reads joined, empty lines kept, the last line without an end kept")
    func lines() {
        #expect(split(["one\ntw", "o\r\n\nthr", "ee"], maximum: 10) == [.text("one"), .text("two"), .text(""), .text("three")])
        #expect(split(["a\r", "\nb\n"], maximum: 1) == [.text("a"), .text("b")])
        #expect(split([], maximum: 4).isEmpty && split(["x\n"], maximum: 4) == [.text("x")])
    }

    @Test("a line over the bound is reported once and dropped to its end, across reads; the lines around it survive")
    func oversized() {
        #expect(split(["ok\n0123456789", "0123456789", "01\nnext\n"], maximum: 5) == [.text("ok"), .oversized, .text("next")])
        #expect(split(["123456\nabc"], maximum: 5) == [.oversized, .text("abc")])
        #expect(split(["12345\r\n", "123456"], maximum: 5) == [.text("12345"), .oversized])
        #expect(split(["1234567890123"], maximum: 5) == [.oversized])
    }
}
