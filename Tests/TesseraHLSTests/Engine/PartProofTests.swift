import Testing
@testable import TesseraHLS
import TesseraPlaylist

/// When staged LL-HLS parts may stand for their parent segment: the listing and the bytes.
@Suite("Part proof: parts promoted only when the playlist and the bytes say they are the segment")
struct PartProofTests {
    static func part(_ uri: String, _ duration: String, range: (UInt64, UInt64)? = nil, gap: Bool = false) -> PartialSegment {
        PartialSegment(uri: uri, duration: Double(duration)!, durationText: duration,
                       byteRange: range.map { PlaylistByteRange(length: $0.1, offset: $0.0, resolvedOffset: $0.0) }, isGap: gap)
    }

    static func segment(_ duration: String = "4.000", range: (UInt64, UInt64)? = nil, keyed: Bool = false) -> MediaSegment {
        MediaSegment(uri: "s1.ts", duration: Double(duration)!, durationText: duration, mediaSequence: 1,
                     byteRange: range.map { PlaylistByteRange(length: $0.1, offset: $0.0, resolvedOffset: $0.0) },
                     keys: keyed ? [SegmentKey(method: .aes128, uri: "k")] : [])
    }

    @Test("parts of their own files that add up to the EXTINF (within what the decimals round) are the segment")
    func proven() {
        #expect(PartProof.check((0..<4).map { Self.part("p\($0).ts", "1.000") }, for: Self.segment()) == nil)
        #expect(PartProof.check((0..<3).map { Self.part("p\($0).ts", "1.33") }, for: Self.segment("4.0")) == nil, "3.99 within the rounding")
    }

    @Test("none listed, encrypted, a GAP part, or durations that do not add up: fetched whole, with why")
    func refused() {
        #expect(PartProof.check([], for: Self.segment())?.contains("not listed") == true)
        #expect(PartProof.check([Self.part("p.ts", "4.000")], for: Self.segment(keyed: true))?.contains("encrypted") == true)
        #expect(PartProof.check([Self.part("a.ts", "2.000"), Self.part("b.ts", "2.000", gap: true)], for: Self.segment()) == "part 1 is GAP")
        #expect(PartProof.check([Self.part("a.ts", "2.000"), Self.part("b.ts", "1.500")], for: Self.segment())?.contains("3.500") == true)
    }

    @Test("byte ranges of the segment's own file must tile its range exactly")
    func ranges() {
        let segment = Self.segment(range: (100, 300))
        let tiled = [Self.part("s1.ts", "2.000", range: (100, 150)), Self.part("s1.ts", "2.000", range: (250, 150))]
        #expect(PartProof.check(tiled, for: segment) == nil)
        let gapped = [Self.part("s1.ts", "2.000", range: (100, 150)), Self.part("s1.ts", "2.000", range: (260, 140))]
        #expect(PartProof.check(gapped, for: segment)?.contains("does not follow") == true)
        let short = [Self.part("s1.ts", "2.000", range: (100, 150)), Self.part("s1.ts", "2.000", range: (250, 100))]
        #expect(PartProof.check(short, for: segment)?.contains("do not end") == true)
        let mixed = [Self.part("s1.ts", "2.000", range: (100, 150)), Self.part("other.ts", "2.000")]
        #expect(PartProof.check(mixed, for: segment)?.contains("some of its parts") == true)
    }
}
