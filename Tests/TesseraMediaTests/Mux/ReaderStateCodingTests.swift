#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import TesseraMedia
import TesseraTestSupport

/// A reader's state written down and read back (a streamed mux keeps it in its checkpoint) reads
/// on exactly as the reader it was taken from.
@Suite("Reader state coding: a reader encoded mid-stream and decoded reads on as the original")
struct ReaderStateCodingTests {
    static func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    /// What a unit is, field by field.
    static func expectSame(_ a: [ElementaryStreamReader.Unit], _ b: [ElementaryStreamReader.Unit]) {
        #expect(a.count == b.count && !a.isEmpty)
        #expect(a.map(\.kind) == b.map(\.kind))
        #expect(a.map(\.unit) == b.map(\.unit))
        #expect(a.map(\.duration) == b.map(\.duration))
        #expect(a.map(\.media) == b.map(\.media))
        #expect(a.map(\.hidden) == b.map(\.hidden))
    }

    @Test("MPEG-TS whose parameters change at each discontinuity: decoded after every segment, the reader gives the same units and media as the original")
    func transportStream() throws {
        let names = ["p1_000", "p1_001", "p2_002", "p2_003", "p3_004", "p3_005"]
        for split in 1..<names.count {
            var original = ElementaryStreamReader()
            for name in names[..<split] { _ = try original.read(segment: try FixtureStore.bytes("g_discontinuity/\(name).ts")) }
            var decoded = try Self.roundTrip(original)
            for name in names[split...] {
                let bytes = try FixtureStore.bytes("g_discontinuity/\(name).ts")
                Self.expectSame(try original.read(segment: bytes), try decoded.read(segment: bytes))
            }
        }
    }

    @Test("a sizes-only reader of the other kinds stays so; fragmented MP4 reads the same after decoding")
    func settingsAndFragments() throws {
        var reader = ElementaryStreamReader(kinds: [.audio])
        reader.keepsBytes = false
        let decoded = try Self.roundTrip(reader)
        #expect(decoded.kinds == [.audio] && !decoded.keepsBytes)
        let initialization = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_video/init.mp4"))
        let fragment = try FixtureStore.bytes("b_fmp4_video/seg_001.m4s")
        let original = ElementaryStreamReader()
        Self.expectSame(try original.read(fragment: fragment, initialization: initialization),
                        try Self.roundTrip(original).read(fragment: fragment, initialization: initialization))
    }

    @Test("an audio frame split across packets, and the clock of frames without a PTS, survive the coding")
    func splitFrame() throws {
        let frames = ADTSReaderTests.frame(payload: 300) + ADTSReaderTests.frame(payload: 200) + ADTSReaderTests.frame(payload: 100)
        var original = ADTSReader()
        let first = try original.consume(.make(pts: 90_000, data: Array(frames[..<400])))
        #expect(first.count == 1, "the second frame is carried")
        var decoded = try Self.roundTrip(original)
        for packet in [PESPacket.make(pts: nil, data: Array(frames[400..<600])), .make(pts: nil, data: Array(frames[600...]))] {
            let (a, b) = (try original.consume(packet), try decoded.consume(packet))
            #expect(a == b)
        }
        #expect(decoded.configuration == original.configuration && decoded.header == original.header)
    }

    @Test("every kind of sample description codes to itself")
    func media() throws {
        var descriptions: [MP4Track.Media] = []
        var reader = ElementaryStreamReader()
        for name in ["p1_000", "p2_002", "p3_004"] {
            descriptions += try reader.read(segment: try FixtureStore.bytes("g_discontinuity/\(name).ts")).map(\.media)
        }
        let initialization = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_audio/init.mp4"))
        descriptions += try reader.read(fragment: try FixtureStore.bytes("b_fmp4_audio/seg_000.m4s"), initialization: initialization).map(\.media)
        descriptions.append(.timedText)
        #expect(try Self.roundTrip(descriptions) == descriptions)
        #expect(Set(descriptions.map(\.family)).count >= 3)
    }
}
