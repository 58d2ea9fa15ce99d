import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraLive
import TesseraPlayback
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// Recordings of the LL-HLS test origin (serving pinned TS fixture segments, cycled) over real
/// HTTP on loopback: the origin publishes a segment each time the recorder writes one, so every
/// step is deterministic; the result must be a package `PackageStore` verifies.
@Suite("Live recording: every segment once, honest gaps, a verified package committed at the end")
struct LiveRecordingTests {
    final class Live: Sendable {
        let host: LiveOriginHost
        var origin: LiveOrigin { host.origin }
        let folder: TemporaryDirectory
        let destination: URL

        init(published: Int = 12, window: Int = 6, serveMedia: Bool = true) throws {
            var configuration = LiveOriginPlaylist.Configuration()
            configuration.partsPerSegment = 2
            configuration.window = window
            configuration.canSkipUntil = nil
            configuration.segmentExtension = "ts"
            let media = try (0..<4).map { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
            host = try LiveOriginHost(LiveOrigin(configuration, published: published, media: serveMedia ? media : []))
            folder = try TemporaryDirectory()
            destination = folder.url.appendingPathComponent("rec")
        }

        /// A recording on an immediate clock: outage waits pass at once; resource deadlines are
        /// off (their watcher would spin on a clock whose sleeps never wait).
        func recording(_ options: LiveRecording.Options) -> LiveRecording {
            var options = options
            options.bounds.resourceDeadline = nil
            var configuration = HLSClient.defaultConfiguration
            configuration.retry = .never
            return LiveRecording(url: host.playlistURL, destination: destination,
                                 client: HLSClient(transport: host.transport, configuration: configuration, clock: ImmediateClock()), options: options)
        }

        /// The committed package, verified.
        func verified() throws -> PackageVerification {
            let verification = PackageStore(folder: destination).verify()
            #expect(verification.isVerified, "\(verification.findings)")
            return verification
        }

        func playlist(_ verification: PackageVerification) throws -> MediaPlaylist {
            let bytes = try #require(verification.playlists["video/index.m3u8"])
            let parsed = try PlaylistParser().parse(bytes).playlist
            guard case .media(let playlist) = parsed else { Issue.record("video/index.m3u8 is not a media playlist"); return MediaPlaylist() }
            return playlist
        }
    }

    /// Counts events and publishes the next segment after each segment written.
    final class Driver: Sendable {
        let progress = Lock(0)
        let gaps = Lock<[UInt64]>([])
    }

    @Test("from the window start to ENDLIST: each segment fetched once, a recording package that verifies")
    func toEndList() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        let driver = Driver()
        let report = try await live.recording(options).run { event in
            guard case .progress(let progress) = event else { return }
            let count = driver.progress.withLock { count -> Int in count += 1; return count }
            guard count > 1 else { return }
            if progress.segments < 9 { live.origin.advance(parts: 2) } else { live.origin.end() }
        }
        #expect(report.end == .endList)
        #expect(report.gaps == 0 && report.originGaps == 0)
        let media = live.origin.log.filter { $0.hasSuffix(".ts") }
        #expect(media == Array(Set(media)).sorted { Int($0.dropFirst(2).dropLast(3))! < Int($1.dropFirst(2).dropLast(3))! }, "each segment once, in order: \(media)")
        #expect(media.first == "/s0.ts", "from the window start")
        let verification = try live.verified()
        #expect(verification.manifest?.kind == .recording)
        let playlist = try live.playlist(verification)
        #expect(playlist.hasEndList && playlist.playlistType == .vod)
        #expect(playlist.segments.map(\.mediaSequence) == Array(0...UInt64(report.segments - 1)))
        #expect(playlist.segments.allSatisfy { $0.keys.isEmpty && $0.parts.isEmpty && $0.programDateTime != nil })
        #expect(report.segments == playlist.segments.count && report.duration == Double(2 * report.segments))
        let first = try Data(contentsOf: live.destination.appendingPathComponent("video/0.ts"))
        #expect(Array(first) == (try FixtureStore.bytes("a_ts_vod/seg_000.ts")), "the bytes as served")
    }

    @Test("from now, for a duration: starts at the newest segment and stops once the media seconds are in")
    func nowForDuration() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.duration = .seconds(6)
        let report = try await live.recording(options).run { event in
            if case .progress = event { live.origin.advance(parts: 2) }
        }
        #expect(report.end == .duration)
        #expect(report.duration == 6 && report.segments == 3)
        let playlist = try live.playlist(try live.verified())
        #expect(playlist.segments.first?.mediaSequence == 5, "the newest complete segment at tune-in (12 parts: segments 0–5)")
    }

    @Test("an outage longer than the window: what slid out is listed as estimated EXT-X-GAP, never concatenated over")
    func outageBeyondWindow() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        let retries = Lock(0)
        let origin = live.origin
        let segmentsWritten = Lock(0)
        let report = try await live.recording(options).run { event in
            switch event {
            case .progress(let progress):
                let before = segmentsWritten.withLock { count -> Int in defer { count = progress.segments }; return count }
                guard progress.segments > before else { return }
                if progress.segments == 6 { origin.setOutage(true) }
                else if progress.segments >= 9 { origin.end() }
            case .reload(.retry):
                // Back after three retries, ten segments later: four of them left the window of six.
                if retries.withLock({ count -> Int in count += 1; return count }) == 3 {
                    origin.advance(parts: 20)
                    origin.setOutage(false)
                }
            default: break
            }
        }
        #expect(report.gaps == 4, "segments 6–9 left the window during the outage")
        #expect(report.retries >= 3)
        let verification = try live.verified()
        let playlist = try live.playlist(verification)
        let gaps = playlist.segments.filter(\.isGap).map(\.mediaSequence)
        #expect(gaps == [6, 7, 8, 9])
        #expect(playlist.segments.map(\.mediaSequence) == Array(0...UInt64(playlist.segments.count - 1)), "every media sequence accounted for")
        #expect(verification.manifest?.gaps.map(\.mediaSequence) == [6, 7, 8, 9])
        #expect(verification.manifest?.gaps.allSatisfy(\.estimated) == true)
        #expect(verification.manifest?.gaps.allSatisfy { $0.duration == 2 } == true, "from PROGRAM-DATE-TIME: 8 s over four segments")
    }

    @Test("stop() ends cleanly and commits what was written; a stop before any segment commits nothing")
    func stop() async throws {
        let live = try Live()
        let control = RecordingControl()
        let report = try await live.recording(LiveRecording.Options()).run(control: control) { event in
            guard case .progress(let progress) = event else { return }
            if progress.segments >= 3 { control.stop() } else { live.origin.advance(parts: 2) }
        }
        #expect(report.end == .stopped && report.segments >= 3)
        _ = try live.verified()

        let early = try Live()
        let stopped = RecordingControl()
        stopped.stop()
        await #expect(throws: HLSError.self) { try await early.recording(LiveRecording.Options()).run(control: stopped) }
        #expect(!FileManager.default.fileExists(atPath: early.destination.path), "nothing at the destination")
    }

    @Test("segments that cannot be fetched (404) end the recording with nothing to commit: the typed error, no destination")
    func unfetchable() async throws {
        let live = try Live(serveMedia: false)
        do {
            _ = try await live.recording(LiveRecording.Options()).run()
            Issue.record("a recording of nothing was committed")
        } catch {
            #expect(error.code == .nothingRecorded && error.message.contains("404"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: live.destination.path))
    }
}
