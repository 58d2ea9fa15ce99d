import Foundation
import Testing
@testable import TesseraPlaylist

/// The parser reads the common segment (an optional date, an EXTINF without a title, a URI) in
/// one step when the whole document is in hand, and a line at a time otherwise. A document read
/// one byte at a time never holds a whole segment, so it takes the general path: for every
/// document the two must store the same records — every field, line numbers included, which
/// model equality leaves out — with the same diagnostics, or throw the same error.
@Suite("The common segment's path")
struct CommonSegmentPathTests {
    /// What a parse leaves, every stored field spelled out (line numbers take no part in `==`).
    static func outcome(_ bytes: [UInt8], _ parser: PlaylistParser, pieces: Bool) -> String {
        do {
            var offset = 0
            let parsed = pieces ? try parser.parse { buffer in
                guard offset < bytes.count else { return false }
                buffer.append(bytes[offset])
                offset += 1
                return true
            } : try parser.parse(bytes)
            var lines = parsed.diagnostics.map { "\($0.id) \($0.line ?? -1) \($0.message)" }
            if case .media(let media) = parsed.playlist {
                lines += media.segments.packed.enumerated().map { index, r in
                    "\(media.segments[index].uri) \(r.duration.bitPattern) \(r.durationPlaces) \(r.mediaSequence) \(r.discontinuitySequence) "
                        + "\(r.dateBits) \(r.dateForm) \(r.rangeLength) \(r.rangeOffset) \(r.uriStart) \(r.uriCount) \(r.line) \(r.extras) \(r.flags) "
                        + "\(media.segments[index].keys.map(\.line.number))"
                }
            }
            return lines.joined(separator: "\n") + "\n\(parsed.playlist == (try? parser.parse(bytes))?.playlist)"
        } catch {
            return "\(error.code.rawValue) \(error.message) \(error.line ?? -1)"
        }
    }

    static func media(_ body: String, header: String = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n") -> [UInt8] { Array((header + body).utf8) }

    static let documents: [[UInt8]] = {
        let plain = (0..<40).map { "#EXTINF:4.000,\nseg_\($0).ts\n" }.joined()
        let dated = (0..<40).map { "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:\(10 + $0).000Z\n#EXTINF:4.000,\nhttps://cdn.example.com/v/\($0).ts\n" }.joined()
        let ranged = (0..<150).map { "#EXTINF:4,\n#EXT-X-BYTERANGE:100@\($0 * 100)\nall.ts\n" }.joined()
        return [
            media(plain + "#EXT-X-ENDLIST\n"),
            media(dated),
            media("#EXTINF:4,\na.ts\n#EXTINF:4\nno-comma.ts\n#EXTINF:4,title\nt.ts\n#EXTINF:04.0,\nz.ts\n#EXTINF:1.1234567890123456,\nlong.ts\n#EXTINF:x,\nbad.ts\n"),
            media("#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.1234Z\n#EXTINF:4,\nfour-digits.ts\n#EXT-X-PROGRAM-DATE-TIME:2026-13-01T00:00:00Z\n#EXTINF:4,\ninvalid.ts\n"
                  + "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00\n#EXTINF:4,\nno-zone.ts\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:04+01:00\n#EXTINF:4,\nzone.ts\n"),
            media("#EXTINF:4,\r\ncrlf.ts\r\n#EXTINF:4,\n\ta.ts\n#EXTINF:4,\n\n\nafter-empty.ts\n#EXTINF:4,\n# a comment\nafter-comment.ts\n#EXTINF:4,\n#EXTINF:5,\ntwice.ts\n"),
            media("#EXTINF:4,\n{$p}/a.ts\n#EXTINF:4,\n{$missing}.ts\n", header: "#EXTM3U\n#EXT-X-DEFINE:NAME=\"p\",VALUE=\"https://cdn.example.com\"\n#EXT-X-TARGETDURATION:4\n"),
            media("#EXTINF:4,\n{x}.ts\n#EXTINF:4,\ns\u{e9}gment.ts\n#EXTINF:4,\nlast-without-a-line-feed.ts"),
            media(plain.replacingOccurrences(of: "#EXTINF:4.000,\nseg_7.ts\n", with: "#EXT-X-DISCONTINUITY\n#EXTINF:4.000,\nseg_7.ts\n#EXT-X-GAP\n")
                  .replacingOccurrences(of: "#EXTINF:4.000,\nseg_20.ts\n", with: "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-BITRATE:800\n#EXTINF:4.000,\nseg_20.ts\n")),
            media(ranged + plain),
            media("#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:100\na.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:50\nb.ts\n"
                  + "#EXTINF:4,\n#EXT-X-BYTERANGE:50\nb.ts\n#EXTINF:4,\nc.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:10\nc.ts\n"
                  + "#EXT-X-BITRATE:900\n#EXTINF:4,\n#EXT-X-BYTERANGE:10@0\nd.ts\n#EXTINF:4,\nd.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:18446744073709551615@1\ne.ts\n"
                  + "#EXT-X-BYTERANGE:7@0\n#EXTINF:4,\nf.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:7\nf.ts\n#EXTINF:4,\n#EXT-X-BYTERANGE:1@x\ng.ts\n"),
            media(plain, header: "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:18446744073709551600\n"),
            media(plain, header: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-TARGETDURATION:4\n"),
            media(plain, header: "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-SKIP:SKIPPED-SEGMENTS=5\n"),
            Array("#EXTM3U\n#EXTINF:4,\na.ts\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n".utf8),
            media(["2024-02-28T23:59:59.999Z", "2024-02-29T00:00:00.000Z", "2025-02-29T00:00:00.000Z", "2024-02-29T00:00:60.000Z",
                   "2024-02-29T24:00:00.000Z", "2024-13-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "2024-02-29t00:00:01.000Z",
                   "2024-02-29T00:00:02,000Z", "2024-02-29T00:00:03.000z", "2024-02-29T00:00:04.000+00:00", "2024-02-29T00:00:05.0000Z"]
                .map { "#EXT-X-PROGRAM-DATE-TIME:\($0)\n#EXTINF:4,\n\($0).ts\n" }.joined()),
        ]
    }()

    @Test("every document stores the same records, diagnostics and errors either way, lenient and strict")
    func sameRecords() {
        for (index, document) in Self.documents.enumerated() {
            for parser in [PlaylistParser(), PlaylistParser(policy: .strict)] {
                let whole = Self.outcome(document, parser, pieces: false)
                #expect(Self.outcome(document, parser, pieces: true) == whole, "document \(index)")
            }
        }
    }

    @Test("the bounds stop both paths at the same segment and line")
    func bounds() {
        var limits = PlaylistLimits()
        limits.maximumElements = 25
        let document = Self.media((0..<40).map { "#EXTINF:4,\nseg_\($0).ts\n" }.joined())
        #expect(Self.outcome(document, PlaylistParser(limits: limits), pieces: true) == Self.outcome(document, PlaylistParser(limits: limits), pieces: false))
        #expect(Self.outcome(document, PlaylistParser(limits: limits), pieces: false).hasPrefix("limit-exceeded"))
        limits = PlaylistLimits()
        limits.maximumLineBytes = 20
        let long = Self.media("#EXTINF:4,\nshort.ts\n#EXTINF:4,\nhttps://cdn.example.com/longer.ts\n")
        #expect(Self.outcome(long, PlaylistParser(limits: limits), pieces: true) == Self.outcome(long, PlaylistParser(limits: limits), pieces: false))
        #expect(Self.outcome(long, PlaylistParser(limits: limits), pieces: false).hasPrefix("limit-exceeded"))
    }

    @Test("the reader takes the common shapes and no other")
    func readerShapes() {
        func read(_ text: String) -> CommonSegment? {
            let bytes = Array(text.utf8) + Array(repeating: 0x0A, count: 8)
            return bytes.withUnsafeBufferPointer { pointer in
                var reader = CommonSegmentReader(bytes: Bytes(base: pointer), count: pointer.count, maximumLineBytes: 1 << 16)
                return reader.segment(from: 0, number: 10)
            }
        }
        let dated = read("#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.500Z\n#EXTINF:6.006,\nhttps://cdn.example.com/a.ts\n")
        #expect(dated?.duration == 6.006 && dated?.places == 3 && dated?.firstLine == 10 && dated?.uriLine == 12)
        #expect(dated.map { Double(bitPattern: $0.dateBits) } == 1_767_225_600.5 && dated?.dateForm != PackedSegment.dateNone)
        let plain = read("#EXTINF:2,\nseg.ts\n")
        #expect(plain?.duration == 2 && plain?.places == 0 && plain?.uriLine == 11 && plain?.dateForm == PackedSegment.dateNone)
        #expect(read("#EXTINF:2\nseg.ts\n")?.duration == 2)
        let ranged = read("#EXTINF:2,\n#EXT-X-BYTERANGE:1000@500\nseg.ts\n")
        #expect(ranged?.rangeLength == 1000 && ranged?.rangeOffset == 500 && ranged?.uriLine == 12)
        let continued = read("#EXTINF:2,\n#EXT-X-BYTERANGE:1000\nseg.ts\n")
        #expect(continued?.rangeLength == 1000 && continued?.rangeOffset == nil && plain?.rangeLength == nil)
        for other in ["#EXTINF:2,title\nseg.ts\n", "#EXTINF:02,\nseg.ts\n", "#EXTINF:2,\r\nseg.ts\r\n", "#EXTINF:2,\n#seg.ts\n",
                      "#EXTINF:2,\n\nseg.ts\n", "#EXTINF:2,\nseg-{$v}.ts\n", "#EXTINF:2,\ns\u{e9}g.ts\n", "#EXT-X-GAP\n#EXTINF:2,\nseg.ts\n",
                      "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.1234Z\n#EXTINF:2,\nseg.ts\n", "#EXT-X-PROGRAM-DATE-TIME:x\n#EXTINF:2,\nseg.ts\n",
                      "#EXT-X-BYTERANGE:10@0\n#EXTINF:2,\nseg.ts\n", "#EXTINF:2,\n#EXT-X-BYTERANGE:x\nseg.ts\n", "#EXTINF:2,\n#EXT-X-BYTERANGE:10@\nseg.ts\n",
                      "#EXTINF:2,\n#EXT-X-BYTERANGE:10\n#EXT-X-BYTERANGE:10\nseg.ts\n", "seg.ts\n"] {
            #expect(read(other) == nil, "\(other)")
        }
    }

    @Test("a date read the common way is the instant, to the bit, that the general reading gives", arguments: [0, 1, 1969, 1970, 2000, 2024, 2025, 9999])
    func commonDates(year: Int) {
        var reader: CommonSegmentReader?
        func read(_ date: String) -> UInt64? {
            // One reader for all, as a parse has: its day is the last date's when the date part is the same.
            let bytes = Array(date.utf8) + Array(repeating: 0x0A, count: 8)
            return bytes.withUnsafeBufferPointer { pointer in
                var fresh = CommonSegmentReader(bytes: Bytes(base: pointer), count: pointer.count, maximumLineBytes: 1 << 16)
                if let reader { fresh.lastDay = reader.lastDay }
                defer { reader = fresh }
                return fresh.utcMillisecondDate(Span(start: 0, end: date.utf8.count))?.bitPattern
            }
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
        var checked = 0
        for month in 1...12 {
            for day in [1, 15, 28, 29, 30, 31] {
                for (hour, minute, second, millis) in [(0, 0, 0, 0), (12, 34, 56, 789), (23, 59, 59, 999), (7, 5, 9, 1), (0, 0, 0, 100)] {
                    let millisText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
                    let date = "\(yearText)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second)).\(millisText)Z"
                    let general = ISO8601DateTime.secondsSince1970(ArraySlice(Array(date.utf8)))
                    #expect(read(date) == general?.bitPattern, "\(date)")
                    checked += general == nil ? 0 : 1
                }
            }
        }
        #expect(checked >= 12 * 4 * 5)
    }
}
