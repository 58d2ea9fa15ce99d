import Testing
import TesseraPlaylist
import TesseraTestSupport

/// `parse(reading:)` reads a document in pieces: whatever the pieces, it must give what the
/// whole-document parse gives — the same model and diagnostics, or the same error.
@Suite("Parsing a document read in pieces")
struct PiecewiseParseTests {
    /// The outcome of a parse, comparable: the parsed playlist, or the error's code, message and line.
    enum Outcome: Equatable {
        case parsed(ParsedPlaylist)
        case failed(String, String, Int?)
    }

    static func whole(_ bytes: [UInt8], _ parser: PlaylistParser) -> Outcome {
        do { return .parsed(try parser.parse(bytes)) } catch { return .failed(error.code.rawValue, error.message, error.line) }
    }

    /// Parses `bytes` in pieces whose sizes `sizes` gives in turn (cycled).
    static func pieces(_ bytes: [UInt8], sizes: [Int], _ parser: PlaylistParser) -> Outcome {
        var offset = 0, turn = 0
        do {
            return .parsed(try parser.parse { buffer in
                guard offset < bytes.count else { return false }
                let size = min(sizes[turn % sizes.count], bytes.count - offset)
                turn += 1
                buffer += bytes[offset..<offset + size]
                offset += size
                return true
            })
        } catch {
            return .failed(error.code.rawValue, error.message, error.line)
        }
    }

    static let documents: [[UInt8]] = {
        var documents = ((try? FixtureStore.playlistPaths()) ?? []).compactMap { try? FixtureStore.bytes($0) }
        let long = "https://cdn.example.com/a/very/long/path/media.ts"
        let texts = [
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\n\(long)\n#EXTINF:4,\n#EXT-X-BYTERANGE:50\n\(long)\n#EXT-X-ENDLIST\n",
            "\u{FEFF}#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXTINF:4.000,t\u{e9}tle \u{1F3AC}\r\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\r\nseg-\u{e9}\u{20ac}.ts\r\n#EXTINF:4,\r\nlast-without-a-line-feed.ts",
            "#EXTM3U\n#EXT-X-DEFINE:NAME=\"p\",VALUE=\"https://cdn.example.com/prefix\"\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n{$p}/a.ts\n#EXTINF:4,\n{$missing}/b.ts\n",
            "#EXTM3U", "#EXTM3", "", "#EXTM3UX\n", "not a playlist\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n" + String(repeating: "x", count: (64 << 10) + 1) + "\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n" + String(repeating: "\u{e9}", count: 40_000) + "\n",
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nlow.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2000\nhigh.m3u8\n",
        ]
        documents += texts.map { Array($0.utf8) }
        documents.append(Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na".utf8) + [0xC3] + Array("\n".utf8))   // a cut sequence
        documents.append(Array("#EXTM3U\n#EXTINF:4,\nb".utf8) + [0x01] + Array(".ts\n".utf8))   // a control character
        var large = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        for index in 0..<3000 { large += "#EXTINF:2.000,\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:\(index / 60 % 60 < 10 ? "0" : "")\(index / 60 % 60):00Z\nhttps://cdn.example.com/seg_\(index).ts\n" }
        documents.append(Array((large + "#EXT-X-ENDLIST\n").utf8))
        return documents
    }()

    @Test("every document gives the same outcome in pieces of 1, 2, 7, 64, 4096 bytes, a mix, and whole", arguments: [[1], [2], [7], [64], [4096], [3, 1, 500, 17, 65_537], [1 << 20]])
    func sameOutcome(sizes: [Int]) {
        for (index, document) in Self.documents.enumerated() {
            for parser in [PlaylistParser(), PlaylistParser(policy: .strict)] {
                #expect(Self.pieces(document, sizes: sizes, parser) == Self.whole(document, parser), "document \(index)")
            }
        }
    }

    @Test("the byte bound counts the whole document, however it is cut")
    func byteBound() {
        var limits = PlaylistLimits()
        limits.maximumBytes = 100
        let parser = PlaylistParser(limits: limits)
        let document = Array(("#EXTM3U\n#EXT-X-TARGETDURATION:4\n" + String(repeating: "#EXTINF:4,\na.ts\n", count: 10)).utf8)
        guard case .failed(let code, _, _) = Self.pieces(document, sizes: [9], parser) else {
            Issue.record("a 192-byte document passed a 100-byte bound")
            return
        }
        #expect(code == "limit-exceeded")
        #expect(Self.pieces(Array(document.prefix(100)), sizes: [9], parser) == Self.whole(Array(document.prefix(100)), parser))
    }
}
