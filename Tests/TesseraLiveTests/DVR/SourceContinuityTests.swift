import Foundation
import Testing
import TesseraPlaylist
@testable import TesseraLive

@Suite("Source continuity: a track's source numbers in the recording's, across restarts")
struct SourceContinuityTests {
    static let base = URL(string: "https://origin.example/live/index.m3u8")!

    /// `range`, 2 s each, named `<prefix><msn>.ts`, dated from `start` (nil: undated).
    static func playlist(_ range: ClosedRange<UInt64>, prefix: String = "s", start: Double? = 1_800_000_000) -> MediaPlaylist {
        SourceRestartTests.playlist(range, prefix: prefix, start: start)
    }

    /// A timeline that took `playlist` whole.
    static func timeline(_ playlist: MediaPlaylist) throws -> RecordingTimeline {
        var timeline = RecordingTimeline(start: .windowStart, limit: nil)
        _ = try timeline.take(playlist, listedIn: base)
        return timeline
    }

    @Test("an unbroken source keeps its numbers")
    func unbroken() throws {
        var continuity = SourceContinuity()
        let timeline = try Self.timeline(Self.playlist(10...12))
        let (mapped, restart) = continuity.map(Self.playlist(11...13), at: .seconds(6), timeline: timeline, base: Self.base)
        #expect(restart == nil && mapped == Self.playlist(11...13))
        #expect(continuity.sourceSequence(of: 13) == 13 && continuity.gapKind(before: 13) == .missed)
    }

    @Test("a segment listed again with another URI than the one taken is a restart, though its number did not go back")
    func otherURI() throws {
        var continuity = SourceContinuity()
        let timeline = try Self.timeline(Self.playlist(10...12, start: nil))
        _ = continuity.map(Self.playlist(10...12, start: nil), at: .zero, timeline: timeline, base: Self.base)
        let (mapped, restart) = continuity.map(Self.playlist(12...14, prefix: "new", start: nil), at: .seconds(6), timeline: timeline, base: Self.base)
        #expect(restart?.reason == "segment 12 is listed with another URI than the one recorded")
        // Lost: 6 s since the edge moved, minus the 6 s the new playlist lists: nothing.
        #expect(restart?.gaps == 0 && mapped.segments.map(\.mediaSequence) == [13, 14, 15] && mapped.segments[0].isDiscontinuity)
        #expect(mapped.segments.map(\.discontinuitySequence) == [1, 1, 1])
        #expect(continuity.sourceSequence(of: 15) == 14 && continuity.sourceSequence(of: 12) == nil)
    }

    @Test("resumed after kill -9, a source that restarted meanwhile (all it lists is before the recording's first) is a restart; one still at the recorded segments is not")
    func resumed() throws {
        let timeline = try Self.timeline(Self.playlist(40...44, start: nil))
        var fresh = SourceContinuity()
        let (mapped, restart) = fresh.map(Self.playlist(0...3, start: nil), at: .zero, timeline: timeline, base: Self.base)
        #expect(restart?.reason == "it lists media sequences 0–3, before the recording's first (40)")
        #expect(mapped.segments.first?.mediaSequence == 45)
        var same = SourceContinuity()
        #expect(same.map(Self.playlist(42...46, start: nil), at: .zero, timeline: timeline, base: Self.base).restart == nil)
    }

    @Test("restored from a checkpoint record of a renumbered entry, the mapping goes on where it was")
    func restored() throws {
        var timeline = RecordingTimeline(start: .windowStart, limit: nil)
        var renumbered = Self.playlist(2...3)
        for index in renumbered.segments.indices { renumbered.segments[index].mediaSequence += 50 }
        _ = try timeline.take(renumbered, listedIn: Self.base)
        let local = RecordingPlanner.Local(uri: "53.ts", map: nil, resourcesEnd: 1, position: 0)
        var record = RecordingEntryRecord(timeline.entries[1], track: "video", local: local, mapKey: nil)
        record.sourceSequence = 3
        record.sourceDiscontinuity = 0
        var continuity = SourceContinuity(restoring: record)
        let (mapped, restart) = continuity.map(Self.playlist(3...5), at: .zero, timeline: timeline, base: Self.base)
        #expect(restart == nil)
        #expect(mapped.segments.map(\.mediaSequence) == [53, 54, 55])
    }
}
