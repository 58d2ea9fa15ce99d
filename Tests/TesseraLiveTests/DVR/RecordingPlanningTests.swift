import Foundation
import Testing
@testable import TesseraHLS
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport
@testable import TesseraLive

/// The recorder's planning half fed its tracks' items in a chosen order — no sockets, no clock:
/// what each track's timeline takes, and when the recording is done.
@Suite("Recording planning: what each track takes from the snapshots as they arrive, in any order")
struct RecordingPlanningTests {
    /// A planner of a variant (`video`) and an audio rendition, over logs in a temporary folder.
    struct Harness {
        let folder: TemporaryDirectory
        static let source = RecordingSource(mediaURL: URL(string: "https://origin.example/v.m3u8")!, multivariant: nil, variant: nil,
                                     provenance: "the media playlist given",
                                     renditions: [.init(id: "audio-1", role: .audio, index: 0, url: URL(string: "https://origin.example/a.m3u8")!,
                                                        provenance: "audio", choice: LiveReloader.RenditionChoice(type: .audio, name: "English"))])
        var source: RecordingSource { Self.source }
        var options = LiveRecording.Options()
        let events = Lock<[LiveRecording.Notice]>([])

        init(start: LiveRecording.Start = .windowStart) throws {
            folder = try TemporaryDirectory()
            options.start = start
        }

        /// Plans `items` from a fresh start.
        func plan(_ items: [SnapshotInbox.Item]) async throws -> RecordingPlanning.Planned {
            try await planWithRecords(items).planned
        }

        /// Plans `items` from a fresh start: what was planned, and the timeline records logged.
        func planWithRecords(_ items: [SnapshotInbox.Item]) async throws -> (planned: RecordingPlanning.Planned, records: [RecordingEntryRecord]) {
            let timeline = try CheckpointLog<RecordingEntryRecord>(path: folder.url.path + "/timeline", fingerprint: "f", resume: false)
            let evictions = try CheckpointLog<RecordingEvictions>(path: folder.url.path + "/evictions", fingerprint: "f", resume: false)
            let ledger = Lock(RecordingLedger(timeline: timeline, evictionLog: evictions, holdsRecords: false))
            // Each item as its own: the order under test, none coalesced.
            let (inbox, feed) = AsyncStream.makeStream(of: SnapshotInbox.Item.self)
            for item in items { feed.yield(item) }
            feed.finish()
            let start: RecordingTimeline.Start = options.start == .now ? .now : .windowStart
            let tracks = [RecordingTrackPlan(id: "video", role: .video, rendition: nil, timeline: RecordingTimeline(start: start, limit: nil)),
                          RecordingTrackPlan(id: "audio-1", role: .audio, rendition: 0, timeline: RecordingTimeline(start: .windowStart, limit: nil))]
            let resolver = LiveURLResolver(urls: [.main: source.mediaURL, StreamIdentity("audio-1"): source.renditions[0].url],
                                           clock: ElapsedClock(ContinuousClock()))
            let events = self.events
            let planning = RecordingPlanning(options: options, source: source, control: RecordingControl(), resolver: resolver, parts: nil) { event in
                events.withLock { $0.append(event) }
            }
            let queue = BoundedChannel<PlannedFetch>(.backPressure(capacity: 1000))
            let state = Lock(RecordingState(from: RecordingPlanning.Planned(tracks: tracks, resources: 0), onRestart: options.onRestart,
                                            evicts: false))
            let planned = await planning.plan(inbox, into: queue, state: state, log: ledger)
            // Read back from the log: without retention the ledger holds none in memory.
            #expect(ledger.withLock { $0.records.isEmpty })
            return (planned, try ledger.withLock { ledger throws(HLSError) in try ledger.entries() })
        }

        /// The restarts reported, as (track, lost seconds, gap entries).
        var restarts: [(String, Double, Int)] {
            events.withLock { events in
                events.compactMap { if case .sourceRestarted(let track, _, let lost, let gaps) = $0 { (track, lost, gaps) } else { nil } }
            }
        }
    }

    /// A live playlist listing `range`, one second each, named `<msn>.ts`, dated `base` seconds
    /// after 2026-01-01T00:00:00Z plus its number (undated when `base` is nil).
    static func playlist(_ range: ClosedRange<UInt64>, prefix: String = "", endList: Bool = false, at base: Int? = 0) -> MediaPlaylist {
        let segments = range.map { msn in
            MediaSegment(uri: "\(prefix)\(msn).ts", duration: 1, mediaSequence: msn,
                         programDateTime: base.map { ProgramDateTime(secondsSince1970: 1_767_225_600 + Double($0) + Double(msn)) })
        }
        return MediaPlaylist(targetDuration: 1, mediaSequence: range.lowerBound, hasEndList: endList, segments: MediaSegments(segments))
    }

    static func snapshot(_ track: Int, _ playlist: MediaPlaylist, at seconds: Int) -> SnapshotInbox.Item {
        .snapshot(track: track, LiveSnapshot(playlist: playlist, mode: .full, at: .seconds(seconds),
                                             newSegments: playlist.segments.first.map { $0.mediaSequence...playlist.segments.last!.mediaSequence }, newParts: 0))
    }

    @Test("a rendition whose ENDLIST arrives before the variant's last playlist still takes what the variant's span comes to cover")
    func renditionEndedFirst() async throws {
        let harness = try Harness()
        let planned = try await harness.plan([
            Self.snapshot(0, Self.playlist(0...0), at: 0), Self.snapshot(1, Self.playlist(0...0), at: 0),
            .retrying(track: 1), .retrying(track: 0),
            // After an outage longer than the window of one: the audio comes back first, and ends.
            Self.snapshot(1, Self.playlist(3...3, endList: true), at: 3), .ended(track: 1, nil),
            Self.snapshot(0, Self.playlist(3...3, endList: true), at: 3), .ended(track: 0, nil),
        ])
        #expect(planned.end == .endList)
        for track in planned.tracks {
            #expect(track.timeline.entries.map(\.segment.mediaSequence) == [0, 1, 2, 3], "\(track.id)")
            #expect(track.timeline.entries.map(\.kind) == [.segment, .missed, .missed, .segment], "\(track.id)")
        }
    }

    @Test("a source restarted in place (numbers from zero, names reused, dated later): recorded on behind a discontinuity, the time lost declared as gap entries, in every track")
    func restartContinues() async throws {
        let harness = try Harness()
        let old = Self.playlist(0...3), new = Self.playlist(0...1, at: 10), last = Self.playlist(0...2, endList: true, at: 10)
        let (planned, records) = try await harness.planWithRecords([
            Self.snapshot(0, old, at: 3), Self.snapshot(1, old, at: 3),
            Self.snapshot(0, new, at: 12), Self.snapshot(1, new, at: 12),
            Self.snapshot(0, last, at: 13), Self.snapshot(1, last, at: 13), .ended(track: 1, nil), .ended(track: 0, nil),
        ])
        #expect(planned.end == .endList)
        for track in planned.tracks {
            let entries = records.filter { $0.track == track.id }
            #expect(entries.map(\.sequence) == Array(0...12), "\(track.id): the recording's numbers go on")
            #expect(entries.map(\.kind) == Array(repeating: "segment", count: 4) + Array(repeating: "restart", count: 6) + Array(repeating: "segment", count: 3))
            #expect(entries.map(\.discontinuity) == Array(repeating: 0, count: 10) + [1, 1, 1], "a discontinuity before the new source")
            #expect(entries[4..<10].allSatisfy { $0.duration == 1 }, "6 s lost, from the dates: 4 s to 10 s")
            #expect(entries.map(\.name).suffix(3) == ["10.ts", "11.ts", "12.ts"], "never a name reused")
            #expect(track.timeline.entries.map(\.segment.mediaSequence) == [10, 11, 12], "\(track.id): the timeline holds what the playlist lists, no more")
        }
        #expect(harness.restarts.map(\.0) == ["video", "audio-1"] && harness.restarts.allSatisfy { $0.1 == 6 && $0.2 == 6 })
        // The checkpoint knows the source's numbers of the renumbered entries (a resume goes on from them).
        let renumbered = records.filter { $0.track == "video" && $0.sequence >= 10 }
        #expect(renumbered.map(\.sourceSequence) == [0, 1, 2] && renumbered.map(\.sourceDiscontinuity) == [0, 0, 0])
    }

    @Test("without dates, the time lost to a restart is the clock's: from when the old source last moved on to when the new one's media began")
    func restartWithoutDates() async throws {
        let harness = try Harness()
        let (_, records) = try await harness.planWithRecords([
            Self.snapshot(0, Self.playlist(0...3, at: nil), at: 3), Self.snapshot(1, Self.playlist(0...3, at: nil), at: 3),
            Self.snapshot(0, Self.playlist(0...1, at: nil), at: 13), Self.snapshot(1, Self.playlist(0...1, at: nil), at: 13),
            .ended(track: 1, nil), .ended(track: 0, nil),
        ])
        let kinds = records.filter { $0.track == "video" }.map(\.kind)
        #expect(kinds == Array(repeating: "segment", count: 4) + Array(repeating: "restart", count: 8) + ["segment", "segment"], "(13 s − 3 s) − 2 s listed")
        #expect(harness.restarts.first.map { $0.1 == 8 && $0.2 == 8 } == true)
    }

    @Test("--on-restart end: the recording ends at the restart, the new source's entries never logged")
    func restartEnds() async throws {
        var harness = try Harness()
        harness.options.onRestart = .end
        let (planned, records) = try await harness.planWithRecords([
            Self.snapshot(0, Self.playlist(0...3), at: 3), Self.snapshot(1, Self.playlist(0...3), at: 3),
            Self.snapshot(0, Self.playlist(0...1, at: 10), at: 12), Self.snapshot(1, Self.playlist(0...1, at: 10), at: 12),
        ])
        guard case .sourceRestarted(let reason) = planned.end else { Issue.record("ended \(String(describing: planned.end))"); return }
        #expect(reason.hasPrefix("video: the source restarted: "))
        #expect(records.map(\.sequence) == [0, 1, 2, 3, 0, 1, 2, 3] && records.allSatisfy { $0.kind == "segment" })
    }
}
