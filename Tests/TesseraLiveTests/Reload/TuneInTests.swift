import Testing
import TesseraLive
import TesseraPlaylist

@Suite("CDN tune-in: a cached first playlist asks further ahead")
struct TuneInTests {
    static func playlist() throws -> MediaPlaylist {
        let text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0\n"
            + "#EXT-X-PART-INF:PART-TARGET=1.0\n#EXT-X-MEDIA-SEQUENCE:100\n#EXTINF:4.0,\ns100.ts\n#EXT-X-PART:DURATION=1.0,URI=\"p0.mp4\"\n"
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure("a media playlist") }
        return media
    }
    static let next = DeliveryDirectives(msn: 101, part: 1, skip: nil)

    @Test("a fresh response asks for the next part as it is")
    func fresh() throws {
        let (directives, goal) = TuneIn.adjust(Self.next, after: try Self.playlist(), age: 0, sinceAdvanced: 0.5, previousGoal: nil)
        #expect(directives == Self.next && goal == nil)
    }

    @Test("5.5 s behind: one segment and half a segment's parts further (goal 4.5 s)")
    func behind() throws {
        let (directives, goal) = TuneIn.adjust(Self.next, after: try Self.playlist(), age: 5, sinceAdvanced: 0.5, previousGoal: nil)
        #expect(goal == 4.5)
        #expect(directives == DeliveryDirectives(msn: 102, part: 2, skip: nil), "floor(4.5 / 4) = 1 segment, round(0.5 / 1) = 1 part (hls.js rounds half up)")
    }

    @Test("over three target durations behind: reload plainly; a goal that grew is not trusted")
    func untrusted() throws {
        #expect(TuneIn.adjust(Self.next, after: try Self.playlist(), age: 13, sinceAdvanced: 0, previousGoal: nil).directives == nil)
        let (directives, goal) = TuneIn.adjust(Self.next, after: try Self.playlist(), age: 5, sinceAdvanced: 0.5, previousGoal: 2)
        #expect(directives == Self.next && goal == 0)
    }
}
