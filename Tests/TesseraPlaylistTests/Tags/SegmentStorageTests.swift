import Testing
@testable import TesseraPlaylist

/// The segment's compact storage (EXTINF text rebuilt from the value, one extras box per run)
/// must be invisible: every text reads and writes back as written, every value as parsed.
@Suite("Compact segment storage")
struct SegmentStorageTests {
    static func media(_ body: String) throws -> MediaPlaylist {
        let parsed = try PlaylistParser().parse(Array(("#EXTM3U\n#EXT-X-TARGETDURATION:20\n" + body).utf8))
        guard case .media(let media) = parsed.playlist else { throw PlaylistError(.malformedTag, "not a media playlist") }
        return media
    }

    @Test("every EXTINF text reads back as written, plain or not", arguments: [
        ("4", 4.0, true), ("4.000", 4.0, true), ("0", 0.0, true), ("0.5", 0.5, true), ("0.05", 0.05, true),
        ("10.010", 10.01, true), ("9.97663", 9.97663, true), ("6.006", 6.006, true), ("123456789012345", 123456789012345, true),
        ("0.0000000000000000000001", 1e-22, true),
        ("04", 4.0, false), ("00.5", 0.5, false), ("4.", 4.0, false), (".5", 0.5, false),
        ("10.0100000000000001", 10.0100000000000001, false), ("1234567890123456", 1234567890123456, false),
        ("0.00000000000000000000001", 1e-23, false),
    ])
    func extinfText(text: String, value: Double, packs: Bool) throws {
        let segment = try #require(try Self.media("#EXTINF:\(text),\na.ts\n").segments.first)
        #expect(segment.durationText == text)
        #expect(segment.duration == value)
        #expect((segment.extras == nil) == packs, "only a text that does not pack needs a box")
        let written = PlaylistWriter().write(.media(try Self.media("#EXTINF:\(text),\na.ts\n")))
        #expect(written.contains("#EXTINF:\(text),\n"))
    }

    @Test("duration and its text stay independent when either is set")
    func settingDuration() throws {
        var segment = try #require(try Self.media("#EXTINF:4.000,\na.ts\n").segments.first)
        segment.duration = 5
        #expect(segment.duration == 5 && segment.durationText == "4.000")
        segment.durationText = "5"
        #expect(segment.duration == 5 && segment.durationText == "5")
        #expect(segment.extras == nil, "a consistent pair packs again")
        #expect(segment == MediaSegment(uri: "a.ts", duration: 5, mediaSequence: 0))
        segment.durationText = "5.0"
        segment.duration = 5.5
        #expect(segment.durationText == "5.0" && segment.duration == 5.5)
        #expect(segment != MediaSegment(uri: "a.ts", duration: 5.5, durationText: "5.5", mediaSequence: 0))
    }

    @Test("a run of segments under the same key and map shares one box; a new tag starts a new one")
    func runsShareExtras() throws {
        let media = try Self.media("""
            #EXT-X-VERSION:6
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-KEY:METHOD=AES-128,URI="k1"
            #EXTINF:4,
            a.m4s
            #EXTINF:4,
            b.m4s
            #EXTINF:4,title
            c.m4s
            #EXTINF:4,
            d.m4s
            #EXT-X-KEY:METHOD=AES-128,URI="k1"
            #EXTINF:4,
            e.m4s
            #EXT-X-BITRATE:800
            #EXTINF:4,
            f.m4s
            """)
        let boxes = media.segments.map(\.extras)
        #expect(boxes.allSatisfy { $0 != nil }, "every parsed segment shares a box")
        #expect(boxes[0] === boxes[1] && boxes[1] === boxes[3], "one run")
        #expect(boxes[2] !== boxes[1] && media.segments[2].title == "title", "a title is the segment's own")
        #expect(boxes[4] !== boxes[3], "a repeated EXT-X-KEY keeps its own line")
        #expect(media.segments[4].keys.first?.line.number != media.segments[3].keys.first?.line.number)
        #expect(boxes[5] !== boxes[4] && media.segments[5].bitrate == 800)
        #expect(media.segments.allSatisfy { $0.map?.uri == "init.mp4" && $0.keys.first?.uri == "k1" })
        let built = MediaSegment(uri: "a.m4s", duration: 4, mediaSequence: 0, keys: media.segments[0].keys, map: media.segments[0].map)
        #expect(built.extras !== boxes[0])
        #expect(built == media.segments[0], "equal values in different boxes compare equal")
    }

    @Test("a bad key is reported once, however many segments stand under it")
    func keyReportedOnce() throws {
        let parsed = try PlaylistParser().parse(Array("""
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:4
            #EXT-X-KEY:METHOD=AES-256-GCM,URI="k",IV=0x00000000000000000000000000000001
            #EXTINF:4,
            a.ts
            #EXTINF:4,
            b.ts
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:4,
            c.ts

            """.utf8))
        #expect(parsed.diagnostics.filter { $0.id == .keyIVNotAllowed }.map(\.line) == [4])
    }
}
