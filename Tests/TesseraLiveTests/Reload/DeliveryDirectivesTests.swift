import Foundation
import Testing
import TesseraLive
import TesseraPlaylist

@Suite("Delivery Directives: the next blocking reload, delta updates, the request URL")
struct DeliveryDirectivesTests {
    static func playlist(_ body: String, control: String = "CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0") throws -> MediaPlaylist {
        let text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:\(control)\n#EXT-X-MEDIA-SEQUENCE:100\n" + body
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure("a media playlist") }
        return media
    }

    static let parts = "#EXT-X-PART-INF:PART-TARGET=1.0\n"
    static func segment(_ n: Int, parts: Int = 0) -> String {
        (0..<parts).map { "#EXT-X-PART:DURATION=1.0,URI=\"s\(n).p\($0).mp4\"\n" }.joined() + "#EXTINF:4.0,\ns\(n).mp4\n"
    }

    @Test("with parts being published: the next part of the segment being built")
    func pendingParts() throws {
        let playlist = try Self.playlist(Self.parts + Self.segment(100, parts: 4) + Self.segment(101, parts: 4)
            + "#EXT-X-PART:DURATION=1.0,URI=\"s102.p0.mp4\"\n#EXT-X-PART:DURATION=1.0,URI=\"s102.p1.mp4\"\n")
        #expect(DeliveryDirectives.next(after: playlist, age: .zero) == DeliveryDirectives(msn: 102, part: 2, skip: nil))
    }

    @Test("when the last part completed its segment: part 0 of the next one; without parts, the next segment")
    func nextSegment() throws {
        let completed = try Self.playlist(Self.parts + Self.segment(100, parts: 4) + Self.segment(101, parts: 4))
        #expect(DeliveryDirectives.next(after: completed, age: .zero) == DeliveryDirectives(msn: 102, part: 0, skip: nil))
        let plain = try Self.playlist(Self.segment(100) + Self.segment(101), control: "CAN-BLOCK-RELOAD=YES")
        #expect(DeliveryDirectives.next(after: plain, age: .zero) == DeliveryDirectives(msn: 102, part: nil, skip: nil))
    }

    @Test("a delta update only while the held copy is younger than half the Skip Boundary; v2 with CAN-SKIP-DATERANGES")
    func skip() throws {
        let playlist = try Self.playlist(Self.segment(100) + Self.segment(101), control: "CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24.0")
        #expect(DeliveryDirectives.next(after: playlist, age: .seconds(11))?.skip == .yes)
        #expect(DeliveryDirectives.next(after: playlist, age: .seconds(12))?.skip == nil)
        #expect(DeliveryDirectives.next(after: playlist, age: .zero, allowSkip: false)?.skip == nil)
        let dateRanges = try Self.playlist(Self.segment(100), control: "CAN-SKIP-UNTIL=24.0,CAN-SKIP-DATERANGES=YES")
        #expect(DeliveryDirectives.next(after: dateRanges, age: .seconds(1)) == DeliveryDirectives(msn: nil, part: nil, skip: .v2),
                "no blocking reload offered: skip only")
    }

    @Test("no directives after ENDLIST, nor for a server that offers neither blocking nor deltas")
    func none() throws {
        #expect(DeliveryDirectives.next(after: try Self.playlist(Self.segment(100) + "#EXT-X-ENDLIST\n"), age: .zero) == nil)
        #expect(DeliveryDirectives.next(after: try Self.playlist(Self.segment(100), control: "HOLD-BACK=12.0"), age: .zero) == nil)
    }

    @Test("the URL: earlier directives replaced, the caller's items kept, every item in code point order", arguments: [
        ("https://cdn.example/live/v.m3u8", "https://cdn.example/live/v.m3u8?_HLS_msn=273&_HLS_part=2&_HLS_skip=YES"),
        ("https://cdn.example/live/v.m3u8?token=a%2Fb&_HLS_msn=5&_HLS_part=9", "https://cdn.example/live/v.m3u8?_HLS_msn=273&_HLS_part=2&_HLS_skip=YES&token=a%2Fb"),
        ("https://cdn.example/v.m3u8?b=2&a=1&a=0", "https://cdn.example/v.m3u8?_HLS_msn=273&_HLS_part=2&_HLS_skip=YES&a=1&a=0&b=2"),
    ])
    func url(_ given: String, _ expected: String) throws {
        let directives = DeliveryDirectives(msn: 273, part: 2, skip: .yes)
        #expect(DeliveryDirectives.url(try #require(URL(string: given)), with: directives).absoluteString == expected)
    }

    @Test("without directives the URL loses its _HLS_ items and nothing else")
    func cleared() throws {
        let url = try #require(URL(string: "https://cdn.example/v.m3u8?_HLS_msn=5&sig=x"))
        #expect(DeliveryDirectives.url(url, with: nil).absoluteString == "https://cdn.example/v.m3u8?sig=x")
        let only = try #require(URL(string: "https://cdn.example/v.m3u8?_HLS_skip=YES"))
        #expect(DeliveryDirectives.url(only, with: nil).absoluteString == "https://cdn.example/v.m3u8")
    }

    @Test("a blocking request waits three target durations and one part target (at least 1 s)")
    func timeout() throws {
        #expect(DeliveryDirectives.blockingTimeout(for: try Self.playlist(Self.parts + Self.segment(100, parts: 4))) == .seconds(13))
        let halfSecondParts = try Self.playlist("#EXT-X-PART-INF:PART-TARGET=0.5\n" + Self.segment(100))
        #expect(DeliveryDirectives.blockingTimeout(for: halfSecondParts) == .seconds(13))
        #expect(DeliveryDirectives.blockingTimeout(for: try Self.playlist(Self.segment(100))) == .seconds(13))
    }
}
