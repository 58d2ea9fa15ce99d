import Foundation
import Testing
@testable import TesseraHLS
import TesseraPlaylist
@testable import TesseraLive

@Suite("Recording planner: sequence-stable local names and the fetches each entry needs")
struct RecordingPlannerTests {
    static let url = URL(string: "https://origin.example/live/index.m3u8")!

    static func name(of uri: String, role: PackageTrack.Role = .video, map: Bool = false, kind: RecordingTimeline.Entry.Kind = .segment) throws -> String {
        var planner = RecordingPlanner(track: "t", role: role, stream: .main)
        let segment = MediaSegment(uri: uri, duration: 2, mediaSequence: 41, map: map ? MediaInitializationSection(uri: "init.mp4") : nil)
        var resources = 0
        _ = try planner.plan(RecordingTimeline.Entry(segment: segment, kind: kind, key: "k"), listedIn: url, at: 0, resources: &resources)
        return try #require(planner.newest?.uri)
    }

    @Test("a segment is named by its media sequence number with its URI's extension; without one, the extension its media most likely has")
    func names() throws {
        #expect(try Self.name(of: "a/b/seg_41.TS?token=x") == "41.ts")
        #expect(try Self.name(of: "chunk.m4s", map: true) == "41.m4s")
        #expect(try Self.name(of: "segment?id=41") == "41.ts", "not .seg: ffmpeg refuses extensions it does not allow")
        #expect(try Self.name(of: "segment?id=41", map: true) == "41.m4s")
        #expect(try Self.name(of: "cue/41", role: .subtitles) == "41.vtt")
        #expect(try Self.name(of: "gap?id=41", kind: .missed) == "41.ts")
    }
}
