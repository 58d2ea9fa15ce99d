import Foundation
import Testing
import TesseraPlaylist
@testable import TesseraLive

/// The recording timeline as a pure value: where it starts, every media sequence accounted
/// for, estimated gaps, a changed source refused, the duration limit.
@Suite("Recording timeline: every media sequence once, estimated gaps, a changed source refused")
struct RecordingTimelineTests {
    static func playlist(_ range: ClosedRange<Int>, prefix: String = "", dates: Bool = true, target: UInt64 = 4) -> MediaPlaylist {
        let segments = range.map { msn in
            MediaSegment(uri: "\(prefix)s\(msn).ts", duration: 4, mediaSequence: UInt64(msn),
                         programDateTime: dates ? ProgramDateTime(text: "2026-01-01T00:00:\(String(format: "%02d", msn * 4 % 60)).000Z") : nil)
        }
        return MediaPlaylist(targetDuration: target, mediaSequence: UInt64(range.lowerBound), segments: MediaSegments(segments))
    }

    @Test("from now takes the newest segment; from the window start, the first; then each new one once")
    func start() throws {
        var now = RecordingTimeline(start: .now, limit: nil)
        _ = try now.take(Self.playlist(3...8))
        _ = try now.take(Self.playlist(4...10))
        #expect(now.entries.map(\.segment.mediaSequence) == [8, 9, 10])
        var window = RecordingTimeline(start: .windowStart, limit: nil)
        _ = try window.take(Self.playlist(3...8))
        #expect(window.entries.map(\.segment.mediaSequence) == Array(3...8))
    }

    @Test("segments that slid out are missed entries: PROGRAM-DATE-TIME shares the span, else a target duration each")
    func missed() throws {
        var dated = RecordingTimeline(start: .windowStart, limit: nil)
        _ = try dated.take(Self.playlist(0...3))
        let step = try dated.take(Self.playlist(7...9))
        #expect(dated.entries[step.added].map(\.kind) == [.missed, .missed, .missed, .segment, .segment, .segment])
        #expect(dated.entries[step.added].prefix(3).allSatisfy { $0.segment.duration == 4 && $0.segment.isGap })
        var undated = RecordingTimeline(start: .windowStart, limit: nil)
        _ = try undated.take(Self.playlist(0...3, dates: false, target: 6))
        _ = try undated.take(Self.playlist(5...6, dates: false, target: 6))
        #expect(undated.entries.filter { $0.kind == .missed }.map(\.segment.duration) == [6])
    }

    @Test("a segment listed again with another URI is a changed source; the same path on another host is the same segment")
    func identity() throws {
        var timeline = RecordingTimeline(start: .windowStart, limit: nil)
        let a = URL(string: "http://a.example/live/v.m3u8")!, b = URL(string: "http://b.example/live/v.m3u8")!
        _ = try timeline.take(Self.playlist(0...3), listedIn: a)
        _ = try timeline.take(Self.playlist(1...4, prefix: "http://b.example/live/"), listedIn: b)
        _ = try timeline.take(Self.playlist(2...5), listedIn: b)
        #expect(timeline.entries.map(\.segment.mediaSequence) == Array(0...5))
        #expect(throws: RecordingTimeline.Changed.self) { try timeline.take(Self.playlist(3...6, prefix: "other/"), listedIn: b) }
    }

    @Test("what a playlist no longer lists is forgotten (the log holds it): the timeline holds a window; indices, dates and checks go on")
    func forget() throws {
        var timeline = RecordingTimeline(start: .windowStart, limit: nil)
        _ = try timeline.take(Self.playlist(0...5))
        let end = timeline.endDate
        timeline.forget(before: 4)
        #expect(timeline.entries.map(\.segment.mediaSequence) == [4, 5] && timeline.forgotten == 4 && timeline.count == 6)
        #expect(timeline.endDate == end && timeline.first == 0 && timeline.duration == 24)
        #expect(timeline.taken(3) == nil && timeline.taken(5)?.segment.uri == "s5.ts")
        let step = try timeline.take(Self.playlist(4...7))
        #expect(step.added == 6..<8 && timeline.entry(7).segment.mediaSequence == 7)
        #expect(throws: RecordingTimeline.Changed.self) { try timeline.take(Self.playlist(5...8, prefix: "other/")) }
        // Dated entries slid out while forgotten: the missed span still comes from the dates.
        let missed = try timeline.take(Self.playlist(10...11))
        #expect(missed.added.map { timeline.entry($0).kind } == [.missed, .missed, .segment, .segment])
        #expect(missed.added.prefix(2).allSatisfy { timeline.entry($0).segment.duration == 4 })
        timeline.forget(before: 100)
        #expect(timeline.entries.map(\.segment.mediaSequence) == [11], "the newest always stays")
    }

    @Test("the limit: media seconds, gaps included; nothing taken after it")
    func limit() throws {
        var timeline = RecordingTimeline(start: .windowStart, limit: 10)
        let step = try timeline.take(Self.playlist(0...5))
        #expect(step.complete && timeline.entries.count == 3 && timeline.duration == 12)
        #expect(try timeline.take(Self.playlist(0...9)).added.isEmpty)
    }
}
