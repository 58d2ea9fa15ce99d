import Foundation
import Testing
import TesseraLive
import TesseraPlaylist

@Suite("Delta updates: EXT-X-SKIP filled from history only when provable")
struct DeltaMergeTests {
    static func parse(_ text: String) throws -> MediaPlaylist {
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure("a media playlist") }
        return media
    }

    static let head = "#EXTM3U\n#EXT-X-VERSION:10\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24.0,CAN-SKIP-DATERANGES=YES\n"

    static func segments(_ range: ClosedRange<Int>, token: String = "a", discontinuityAt: Int? = nil) -> String {
        range.map { n in (n == discontinuityAt ? "#EXT-X-DISCONTINUITY\n" : "") + "#EXTINF:4.0,\ns\(n).ts?t=\(token)\n" }.joined()
    }

    /// The held copy: segments 100…110, a key from the start, a discontinuity before 103, two Date Ranges.
    static func held() throws -> MediaPlaylist {
        try parse(head + "#EXT-X-MEDIA-SEQUENCE:100\n#EXT-X-DISCONTINUITY-SEQUENCE:7\n#EXT-X-KEY:METHOD=AES-128,URI=\"k1\"\n"
            + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-12-01T10:00:00Z\",DURATION=10\n"
            + "#EXT-X-DATERANGE:ID=\"old\",START-DATE=\"2026-12-01T10:00:00Z\",DURATION=10\n"
            + segments(100...110, discontinuityAt: 103))
    }

    /// A delta from segment 104: 104…107 skipped, 108…112 listed (new tokens), "old" removed.
    static func delta(mediaSequence: Int = 104, discontinuitySequence: Int = 8, skipped: Int = 4, listed: String? = nil) throws -> MediaPlaylist {
        try parse(head + "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)\n"
            + "#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped),RECENTLY-REMOVED-DATERANGES=\"old\"\n"
            + (listed ?? segments((mediaSequence + skipped)...112, token: "b")))
    }

    @Test("the skipped run comes from history, the listed segments from the delta, counted and keyed on")
    func merges() throws {
        let merged = try DeltaMerge.merge(try Self.delta(), into: try Self.held()).get()
        #expect(merged.skip == nil && merged.mediaSequence == 104)
        #expect(merged.segments.map(\.mediaSequence) == Array(104...112))
        #expect(merged.segments.map(\.uri) == (104...107).map { "s\($0).ts?t=a" } + (108...112).map { "s\($0).ts?t=b" })
        #expect(merged.segments.allSatisfy { $0.discontinuitySequence == 8 }, "the discontinuity before 103 counted once")
        #expect(merged.segments.allSatisfy { $0.keys.first?.uri == "k1" }, "the key the delta skipped stays in force")
        #expect(merged.dateRanges.map(\.id) == ["ad"], "RECENTLY-REMOVED-DATERANGES drops \"old\"")
    }

    @Test("PROGRAM-DATE-TIME dated once in history is carried onto the listed segments without one, up to a discontinuity without a date")
    func carriesDates() throws {
        let dated = try Self.parse(Self.head + "#EXT-X-MEDIA-SEQUENCE:100\n#EXT-X-PROGRAM-DATE-TIME:2026-12-01T10:00:00.000Z\n" + Self.segments(100...110))
        let merged = try DeltaMerge.merge(try Self.delta(discontinuitySequence: 0), into: dated).get()
        #expect(merged.segments.map { $0.programDateTime?.text } == [nil, nil, nil, nil] + (108...112).map { "2026-12-01T10:00:\(($0 - 100) * 4).000Z" },
                "the skipped run as held (undated there), the listed ones dated on from segment 100")
        let broken = Self.segments(108...112, token: "b", discontinuityAt: 111)
        let stopped = try DeltaMerge.merge(try Self.delta(discontinuitySequence: 0, listed: broken), into: dated).get()
        #expect(stopped.segments.suffix(5).map { $0.programDateTime != nil } == [true, true, true, false, false], "a date may jump at a discontinuity")
        let own = "#EXT-X-PROGRAM-DATE-TIME:2026-12-01T11:00:00.000Z\n" + Self.segments(108...112, token: "b")
        let kept = try DeltaMerge.merge(try Self.delta(discontinuitySequence: 0, listed: own), into: dated).get()
        #expect(kept.segments.suffix(5).map { $0.programDateTime?.text } == (0...4).map { "2026-12-01T11:00:\(String(format: "%02d", $0 * 4)).000Z" })
    }

    @Test("a discontinuity inside the listed part counts on from history")
    func listedDiscontinuity() throws {
        let listed = Self.segments(108...112, token: "b", discontinuityAt: 111)
        let merged = try DeltaMerge.merge(try Self.delta(listed: listed), into: try Self.held()).get()
        #expect(merged.segments.map(\.discontinuitySequence) == [8, 8, 8, 8, 8, 8, 8, 9, 9])
    }

    @Test("a key tag of the delta's own ends the carried key")
    func ownKey() throws {
        let listed = Self.segments(108...109, token: "b") + "#EXT-X-KEY:METHOD=AES-128,URI=\"k2\"\n" + Self.segments(110...112, token: "b")
        let merged = try DeltaMerge.merge(try Self.delta(listed: listed), into: try Self.held()).get()
        #expect(merged.segments.map { $0.keys.first?.uri ?? "" } == Array(repeating: "k1", count: 6) + Array(repeating: "k2", count: 3))
    }

    @Test("a merge that cannot be proven is refused", arguments: [
        (98, 7, 4, "no segment 98"),          // history does not reach back that far
        (104, 7, 4, "discontinuity sequence"), // 104 is in discontinuity sequence 8
        (104, 8, 9, "every skipped segment"),  // 104…112 skipped: history ends at 110
    ])
    func refused(_ mediaSequence: Int, _ discontinuity: Int, _ skipped: Int, _ reason: String) throws {
        let listed = Self.segments((mediaSequence + skipped)...(mediaSequence + skipped + 2), token: "b")
        let delta = try Self.delta(mediaSequence: mediaSequence, discontinuitySequence: discontinuity, skipped: skipped, listed: listed)
        #expect(throws: DeltaMerge.Refusal.self) { try DeltaMerge.merge(delta, into: try Self.held()).get() }
        if case .failure(let refusal) = DeltaMerge.merge(delta, into: try Self.held()) { #expect(refusal.reason.contains(reason), "\(refusal)") }
    }

    @Test("a segment both list under different URIs refuses the merge; a query change does not")
    func uriMismatch() throws {
        let listed = "#EXTINF:4.0,\nother108.ts\n" + Self.segments(109...112, token: "b")
        #expect(throws: DeltaMerge.Refusal.self) { try DeltaMerge.merge(try Self.delta(listed: listed), into: try Self.held()).get() }
    }

    @Test("a playlist without EXT-X-SKIP is the new copy as it is")
    func full() throws {
        let full = try Self.parse(Self.head + "#EXT-X-MEDIA-SEQUENCE:105\n" + Self.segments(105...112))
        #expect(try DeltaMerge.merge(full, into: try Self.held()).get() == full)
    }
}
