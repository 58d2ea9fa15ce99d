import Foundation
import Testing
@testable import TesseraHLS
import TesseraPlaylist
@testable import TesseraLive

/// Rolling retention's choice, a pure function, over records the recording's state plans.
@Suite("Recording eviction: the oldest complete prefix over the limit, the renditions aligned before it, files no kept entry uses")
struct RecordingEvictionTests {
    /// Records of `segments` one-second entries of the variant and of an audio rendition, as the
    /// state plans them from one snapshot each.
    static func records(_ segments: ClosedRange<UInt64>) throws -> [RecordingEntryRecord] {
        var state = RecordingStateTests.state()
        var records: [RecordingEntryRecord] = []
        let playlist = RecordingPlanningTests.playlist(segments)
        for track in [0, 1] {
            for case .plan(let planned, let added, let starts) in state.handle(RecordingStateTests.snapshot(track, playlist, at: 0)) {
                for (index, position) in zip(added, starts) {
                    records.append(try state.plan(entry: index, of: planned, at: position, listedIn: RecordingStateTests.video, gapWhenUnavailable: true).record)
                }
            }
        }
        return records
    }

    @Test("a duration limit evicts the variant's oldest entries while more than the limit remains, and the audio ending before what stays")
    func duration() throws {
        let records = try Self.records(0...5)
        let plan = RecordingEviction.plan(records, written: Int.max, retention: .duration(.seconds(3)), primary: "video") { _ in 100 }
        #expect(plan.records.filter { $0.track == "video" }.map(\.sequence) == [0, 1, 2])
        #expect(plan.records.filter { $0.track == "audio-1" }.map(\.sequence) == [0, 1, 2])
        #expect(plan.files == ["audio-1/0.ts", "audio-1/1.ts", "audio-1/2.ts", "video/0.ts", "video/1.ts", "video/2.ts"] && plan.bytes == 600)
    }

    @Test("a byte limit counts every track's files; the newest variant entry is never evicted")
    func bytes() throws {
        let records = try Self.records(0...3)
        let some = RecordingEviction.plan(records, written: Int.max, retention: .bytes(450), primary: "video") { _ in 100 }
        #expect(some.records.filter { $0.track == "video" }.map(\.sequence) == [0, 1], "800 bytes → 400: two of each track go")
        let all = RecordingEviction.plan(records, written: Int.max, retention: .bytes(1), primary: "video") { _ in 100 }
        #expect(all.records.filter { $0.track == "video" }.map(\.sequence) == [0, 1, 2], "the last variant entry stays")
    }

    @Test("a limit of many segments evicts in batches: nothing until over it, then down to no less than 95 % of it")
    func batches() throws {
        let under = RecordingEviction.plan(try Self.records(0...29), written: Int.max, retention: .duration(.seconds(30)), primary: "video") { _ in 100 }
        #expect(under == RecordingEviction.Plan(), "30 s held under a 30 s limit: nothing goes")
        let over = RecordingEviction.plan(try Self.records(0...40), written: Int.max, retention: .duration(.seconds(30)), primary: "video") { _ in 100 }
        #expect(over.records.filter { $0.track == "video" }.map(\.sequence) == Array(0...11), "41 s → 29 s: within 28.5–30 s")
        let bytes = RecordingEviction.plan(try Self.records(0...40), written: Int.max, retention: .bytes(6_000), primary: "video") { _ in 100 }
        #expect(bytes.records.filter { $0.track == "video" }.map(\.sequence) == Array(0...11), "8,200 bytes → 5,800: within 5,700–6,000")
    }

    @Test("only entries whose files are all written count, and nothing goes under the limit")
    func written() throws {
        let records = try Self.records(0...5)
        let firstTwo = records.filter { $0.track == "video" }[1].resourcesEnd
        #expect(RecordingEviction.plan(records, written: firstTwo, retention: .duration(.seconds(1)), primary: "video") { _ in 1 }
            .records.filter { $0.track == "video" }.map(\.sequence) == [0])
        #expect(RecordingEviction.plan(records, written: Int.max, retention: .duration(.seconds(60)), primary: "video") { _ in 1 } == RecordingEviction.Plan())
    }
}
