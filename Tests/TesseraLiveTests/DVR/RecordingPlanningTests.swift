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
        let source = RecordingSource(mediaURL: URL(string: "https://origin.example/v.m3u8")!, multivariant: nil, variant: nil,
                                     provenance: "the media playlist given",
                                     renditions: [.init(id: "audio-1", role: .audio, index: 0, url: URL(string: "https://origin.example/a.m3u8")!,
                                                        provenance: "audio", choice: LiveReloader.RenditionChoice(type: .audio, name: "English"))])
        var options = LiveRecording.Options()
        let events = Lock<[LiveRecording.Event]>([])

        init(start: LiveRecording.Start = .windowStart) throws {
            folder = try TemporaryDirectory()
            options.start = start
        }

        /// Plans `items` (each track then ended) from a fresh start.
        func plan(_ items: [SnapshotInbox.Item]) async throws -> RecordingPlanning.Planned {
            let timeline = try CheckpointLog<RecordingEntryRecord>(path: folder.url.path + "/timeline", fingerprint: "f", resume: false)
            let evictions = try CheckpointLog<RecordingEvictions>(path: folder.url.path + "/evictions", fingerprint: "f", resume: false)
            let ledger = Lock(RecordingLedger(timeline: timeline, evictionLog: evictions))
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
            let queue = FetchQueue(capacity: 1000)
            return await planning.plan(inbox, into: queue, shared: Lock(RecordingPlanning.Shared()), log: ledger,
                                       from: RecordingPlanning.Planned(tracks: tracks, resources: 0))
        }
    }

    /// A live playlist listing `range`, one second each, dated from 2026-01-01T00:00:00Z.
    static func playlist(_ range: ClosedRange<UInt64>, prefix: String = "", endList: Bool = false, at base: Int = 0) -> MediaPlaylist {
        let segments = range.map { msn in
            MediaSegment(uri: "\(prefix)\(msn).ts", duration: 1, mediaSequence: msn,
                         programDateTime: ProgramDateTime(text: String(format: "2026-01-01T00:%02d:%02d.000Z", (base + Int(msn)) / 60, (base + Int(msn)) % 60)))
        }
        return MediaPlaylist(targetDuration: 1, mediaSequence: range.lowerBound, hasEndList: endList, segments: segments)
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
}
