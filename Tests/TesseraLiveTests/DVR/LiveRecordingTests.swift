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

        /// TS segments of 2 s from the pinned fixtures (fMP4 ones with `fmp4`), cycled; `adjust`
        /// changes the origin's configuration.
        init(published: Int = 12, window: Int = 6, serveMedia: Bool = true, fmp4: Bool = false,
             adjust: (inout LiveOriginPlaylist.Configuration) -> Void = { _ in }) throws {
            var configuration = LiveOriginPlaylist.Configuration()
            configuration.partsPerSegment = 2
            configuration.window = window
            configuration.canSkipUntil = nil
            configuration.segmentExtension = fmp4 ? "m4s" : "ts"
            adjust(&configuration)
            let media = try (0..<4).map { try FixtureStore.bytes(fmp4 ? "b_fmp4_video/seg_00\($0).m4s" : "a_ts_vod/seg_00\($0).ts") }
            host = try LiveOriginHost(LiveOrigin(configuration, published: published, media: serveMedia ? media : [],
                                                 initialization: fmp4 ? try FixtureStore.bytes("b_fmp4_video/init.mp4") : []))
            folder = try TemporaryDirectory()
            destination = folder.url.appendingPathComponent("rec")
        }

        /// A recording on an immediate clock: outage waits pass at once; resource deadlines are
        /// off (their watcher would spin on a clock whose sleeps never wait).
        func recording(_ options: LiveRecording.Options, query: String = "", to destination: URL? = nil) -> LiveRecording {
            var options = options
            options.bounds.resourceDeadline = nil
            var configuration = HLSClient.defaultConfiguration
            configuration.retry = .never
            let url = URL(string: host.playlistURL.absoluteString + query)!
            return LiveRecording(url: url, destination: destination ?? self.destination,
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

    /// Publishes, on its origins, one segment for each media sequence a recording accounts for
    /// (written segments and gaps) since it last looked — however the progress reports were
    /// batched, the recording always has its next segment coming — and ENDLIST once `endAfter`
    /// are in.
    ///
    /// Every origin advances by the first one's segment duration (its parts are seconds, as all
    /// are), `ahead` segments more than accounted for (renditions of longer segments need the
    /// one covering the primary's end).
    final class Publisher: Sendable {
        let origins: [LiveOrigin]
        let ahead: Int
        private let seen = Lock(0)

        convenience init(ahead: Int = 0, _ origins: LiveOrigin...) {
            self.init(ahead: ahead, origins: origins)
        }

        init(ahead: Int = 0, origins: [LiveOrigin]) {
            self.origins = origins
            self.ahead = ahead
        }

        func publish(after progress: RecordingProgress, endAfter: Int? = nil) {
            publish(total: progress.segments + progress.gaps, endAfter: endAfter)
        }

        /// Publishes as a (resumed) recording's `event` says: after its checkpoint's entries, and
        /// after each progress report.
        func follow(_ event: LiveRecording.Event, endAfter: Int? = nil) {
            switch event {
            case .job(.resumed(let segments, let gaps, _)): publish(total: segments + gaps, endAfter: endAfter)
            case .progress(let progress): publish(after: progress, endAfter: endAfter)
            default: break
            }
        }

        func publish(total: Int, endAfter: Int? = nil) {
            let target = total + (endAfter == nil ? ahead : 0)
            let new = seen.withLock { count -> Int in defer { count = max(count, target) }; return max(0, target - count) }
            let seconds = origins[0].partsPerSegment
            for origin in origins {
                if let endAfter, total >= endAfter { origin.end() } else if new > 0 { origin.advance(parts: seconds * new) }
            }
        }
    }

    @Test("from the window start to ENDLIST: each segment fetched once, a recording package that verifies")
    func toEndList() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress, endAfter: 9) }
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
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress) }
        }
        #expect(report.end == .duration)
        #expect(report.duration == 6 && report.segments == 3)
        let playlist = try live.playlist(try live.verified())
        #expect(playlist.segments.first?.mediaSequence == 5, "the newest complete segment at tune-in (12 parts: segments 0–5)")
    }

    @Test("Date Ranges wholly inside the recording are kept; those that began before it or end after it are omitted whole and counted")
    func dateRanges() async throws {
        let live = try Live { $0.dateRangeEvery = 1 }
        var options = LiveRecording.Options()
        options.duration = .seconds(6)
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress) }
        }
        let playlist = try live.playlist(try live.verified())
        let recorded = playlist.segments.map { "d\($0.mediaSequence)" }
        #expect(playlist.dateRanges.map(\.id) == recorded, "one range per recorded segment, each inside it")
        #expect(report.dateRangesOmitted >= 5, "d0–d4 began before the recording: \(report.dateRangesOmitted)")
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
            case .job(.reload(.retry)):
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
        // Playable everywhere: each gap names the track's empty gap file, with its media's extension.
        let ext = live.origin.renderer.configuration.segmentExtension
        #expect(playlist.segments.filter(\.isGap).allSatisfy { $0.uri == "gap.\(ext)" })
        #expect(verification.manifest?.files.contains { $0.path == "video/gap.\(ext)" && $0.size == 0 && $0.role == .media } == true)
        let gapFile = try Data(contentsOf: live.destination.appendingPathComponent("video/gap.\(ext)"))
        #expect(gapFile.isEmpty)
    }

    @Test("a dead source whose last playlist is still served: the recording ends at the outage limit, counted from when the next segment was due, what came before committed")
    func deadSource() async throws {
        let live = try Live { $0.lowLatency = false }
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.outageLimit = .seconds(20)
        let waits = Lock<[Duration]>([])
        let report = try await live.recording(options).run { event in
            if case .job(.reload(.noNewSegment(let waited, _))) = event { waits.withLock { $0.append(waited) } }
        }
        guard case .failed(let code, let reason) = report.end else { Issue.record("ended \(report.end)"); return }
        #expect(code == .sourceStopped && reason.contains("the source stopped producing media"), "\(reason)")
        #expect(report.segments == 6 && report.gaps == 0, "the window's six segments, committed")
        #expect(waits.withLock { $0 }.first.map { $0 >= .seconds(4) } == true, "the wait was reported while it went on: \(waits.withLock { $0 })")
        _ = try live.verified()
    }

    @Test("failOnGap: the first gap the recorder would cause fails the recording with live-window-advanced, nothing committed")
    func failOnGap() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.failOnGap = true
        let origin = live.origin
        let retries = Lock(0)
        do {
            _ = try await live.recording(options).run { event in
                switch event {
                case .progress(let progress) where progress.segments == 6: origin.setOutage(true)
                case .job(.reload(.retry)):
                    if retries.withLock({ count -> Int in count += 1; return count }) == 2 {
                        origin.advance(parts: 20)
                        origin.setOutage(false)
                    }
                default: break
                }
            }
            Issue.record("a recording with a gap was committed")
        } catch {
            #expect(error.code == .liveWindowAdvanced, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: live.destination.path))
    }

    @Test("stop() ends cleanly and commits what was written; a stop before any segment commits nothing")
    func stop() async throws {
        let live = try Live()
        let control = RecordingControl()
        let publisher = Publisher(live.origin)
        let report = try await live.recording(LiveRecording.Options()).run(control: control) { event in
            guard case .progress(let progress) = event else { return }
            if progress.segments >= 3 { control.stop() } else { publisher.publish(after: progress) }
        }
        #expect(report.end == .stopped && report.segments >= 3)
        _ = try live.verified()

        let early = try Live()
        let stopped = RecordingControl()
        stopped.stop()
        await #expect(throws: HLSError.self) { try await early.recording(LiveRecording.Options()).run(control: stopped) }
        #expect(!FileManager.default.fileExists(atPath: early.destination.path), "nothing at the destination")
    }

    @Test("no segment can be fetched (404): gaps until ten in a row say the source is gone, then nothing to commit — the typed error, no destination")
    func unfetchable() async throws {
        let live = try Live(serveMedia: false)
        let publisher = Publisher(live.origin)
        do {
            _ = try await live.recording(LiveRecording.Options()).run { event in
                if case .progress(let progress) = event { publisher.publish(after: progress) }
            }
            Issue.record("a recording of nothing was committed")
        } catch {
            #expect(error.code == .nothingRecorded && error.message.contains("in a row") && error.message.contains("404"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: live.destination.path))
    }

    /// Runs `recording` and cancels it once `segments` are written (`progress` hears the
    /// reports before that); the error it ended with.
    static func cancel(_ recording: LiveRecording, after segments: Int,
                       progress: @escaping @Sendable (RecordingProgress) -> Void = { _ in }) async -> HLSError? {
        let written = Lock(0)
        let (cancel, signal) = AsyncStream<Void>.makeStream()
        let run = Task { () -> HLSError? in
            do throws(HLSError) { _ = try await recording.run { event in
                guard case .progress(let report) = event else { return }
                if written.withLock({ count -> Bool in defer { count = report.segments }; return count < segments && report.segments >= segments }) {
                    signal.yield()
                } else if report.segments < segments {
                    progress(report)
                }
            } } catch { return error }
            return nil
        }
        for await _ in cancel { break }
        run.cancel()
        return await run.value
    }

    /// Records from the window start, publishing a segment after each one written, `segments`
    /// in all, then ENDLIST.
    static func recordToEnd(_ live: Live, segments: Int = 10) async throws -> RecordingReport {
        var options = LiveRecording.Options()
        options.start = .windowStart
        let publisher = Publisher(live.origin)
        return try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress, endAfter: segments) }
        }
    }

    @Test("the origin's EXT-X-GAP segments are kept as gaps, never requested or synthesized")
    func originGaps() async throws {
        let live = try Live { $0.gapEvery = 4 }
        let report = try await Self.recordToEnd(live)
        let requested = Set(live.origin.log.filter { $0.hasSuffix(".ts") })
        #expect(!requested.contains("/s3.ts") && !requested.contains("/s7.ts"), "\(requested.sorted())")
        let verification = try live.verified()
        let playlist = try live.playlist(verification)
        let gaps = playlist.segments.filter(\.isGap).map(\.mediaSequence)
        #expect(gaps == playlist.segments.map(\.mediaSequence).filter { $0 % 4 == 3 })
        #expect(report.originGaps == gaps.count && report.gaps == 0 && gaps.count >= 2)
        #expect(verification.manifest?.gaps.allSatisfy { $0.reason == "EXT-X-GAP in the source" && !$0.estimated } == true)
        for msn in gaps { #expect(!FileManager.default.fileExists(atPath: live.destination.appendingPathComponent("video/\(msn).ts").path)) }
    }

    @Test("a new AES-128 key every segment (explicit and media-sequence IVs): stored decrypted, no key anywhere in the package")
    func keyRotation() async throws {
        let live = try Live { $0.keyEvery = 1 }
        let report = try await Self.recordToEnd(live)
        let keys = live.origin.log.filter { $0.hasPrefix("/key-") }
        #expect(keys.count == report.segments && Set(keys).count == keys.count, "each key fetched once: \(keys)")
        let verification = try live.verified()
        let playlist = try live.playlist(verification)
        for segment in playlist.segments {
            let stored = try Data(contentsOf: live.destination.appendingPathComponent("video/\(segment.mediaSequence).ts"))
            #expect(Array(stored) == (try FixtureStore.bytes("a_ts_vod/seg_00\(segment.mediaSequence % 4).ts")), "segment \(segment.mediaSequence) decrypted")
        }
        for path in ["video/index.m3u8", "master.m3u8", "manifest.json"] {
            let text = try String(contentsOf: live.destination.appendingPathComponent(path), encoding: .utf8)
            #expect(!text.contains("EXT-X-KEY") && !text.contains("key-"), "\(path) names no key")
        }
    }

    @Test("EXT-X-MAP rotating every other segment: each map fetched once, written where it starts")
    func mapRotation() async throws {
        let live = try Live(fmp4: true) { $0.mapEvery = 2 }
        _ = try await Self.recordToEnd(live)
        let maps = live.origin.log.filter { $0.hasPrefix("/init-") }
        #expect(maps == Array(Set(maps)).sorted(), "each map once: \(maps)")
        let playlist = try live.playlist(try live.verified())
        for segment in playlist.segments {
            #expect(segment.map?.uri == "init-\(segment.mediaSequence / 2).mp4", "segment \(segment.mediaSequence): \(String(describing: segment.map?.uri))")
        }
        let text = try String(contentsOf: live.destination.appendingPathComponent("video/index.m3u8"), encoding: .utf8)
        #expect(text.components(separatedBy: "#EXT-X-MAP:").count - 1 == (playlist.segments.count + 1) / 2, "one EXT-X-MAP per boundary")
    }

    @Test("two recorders on one destination: the second is refused (destination-busy), the first commits")
    func twoRecorders() async throws {
        let live = try Live()
        let control = RecordingControl()
        let (started, signal) = AsyncStream<Void>.makeStream()
        let first = Task { try await live.recording(LiveRecording.Options()).run(control: control) { event in
            if case .progress = event { signal.yield() }
        } }
        for await _ in started { break }
        await #expect(throws: HLSError.self) {
            do throws(HLSError) { _ = try await live.recording(LiveRecording.Options()).run() } catch {
                #expect(error.code == .destinationBusy, "\(error)")
                throw error
            }
        }
        control.stop()
        let report = try await first.value
        #expect(report.end == .stopped)
        _ = try live.verified()
    }

    @Test("eight recordings of different streams in one process on one HTTP client: none sees another's segments, keys, failure or cancellation")
    func isolation() async throws {
        let transport = try CurlTransport.loopback()
        defer { transport.shutdown() }
        let client = IsolatedStreams.client(transport)
        let folder = try TemporaryDirectory()
        // Stream 5 serves no media (it fails alone); stream 6 is cancelled (alone).
        let streams = try IsolatedStreams(count: 8, silent: 5)
        let tasks = (0..<8).map { index in
            Task { await streams.record(index, to: folder.url.appendingPathComponent("rec-\(index)"), client: client) }
        }
        tasks[6].cancel()
        for (index, task) in tasks.enumerated() {
            let result = await task.value
            switch (index, result) {
            case (5, .failure(let error)): #expect(error.code == .nothingRecorded)
            case (6, .failure(let error)): #expect(error.code == .cancelled)
            case (_, .success(let report)):
                #expect(index != 5 && index != 6, "stream \(index) should have failed")
                try streams.expectOwn(report, stream: index, at: folder.url.appendingPathComponent("rec-\(index)"))
            case (_, .failure(let error)): Issue.record("stream \(index) failed: \(error)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("rec-5").path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("rec-6").path))
    }

    /// Records until four segments are written, copies the on-disk state there (staging folder,
    /// checkpoint, timeline) as a kill -9 at that resource boundary would leave it for a
    /// destination named `name`, then stops; the copies that failed, if any.
    static func crashCopy(_ live: Live, _ options: LiveRecording.Options, query: String = "", as name: String) async throws -> [String] {
        let parent = live.destination.deletingLastPathComponent()
        let control = RecordingControl()
        let state = Lock<(copied: Bool, failures: [String])>((false, []))
        _ = try await live.recording(options, query: query).run(control: control) { event in
            guard case .progress(let progress) = event, progress.segments >= 4, !state.withLock({ $0.copied }) else { return }
            for suffix in ["partial", "checkpoint", "timeline"] {
                do {
                    try FileManager.default.copyItem(at: parent.appendingPathComponent(".rec.tessera-\(suffix)"),
                                                     to: parent.appendingPathComponent(".\(name).tessera-\(suffix)"))
                } catch {
                    state.withLock { $0.failures.append("\(suffix): \(error)") }
                }
            }
            state.withLock { $0.copied = true }
            control.stop()
        }
        return state.withLock { $0.copied ? $0.failures : ["never reached four segments"] }
    }

    @Test("resume after an interruption (the state kill -9 leaves, at a resource boundary), with a rotated signed query and a window that moved: the files kept, the hole a gap")
    func resume() async throws {
        let live = try Live()
        let fileManager = FileManager.default
        let parent = live.destination.deletingLastPathComponent()
        let crashed = parent.appendingPathComponent("crashed")
        var options = LiveRecording.Options()
        options.start = .windowStart
        // Recording A; after its fourth segment its on-disk state is copied as a crash would leave
        // it (staging folder, checkpoint, timeline), then it is stopped.
        let copied = try await Self.crashCopy(live, options, query: "?token=first", as: "crashed")
        #expect(copied.isEmpty, "\(copied)")
        let before = try Data(contentsOf: parent.appendingPathComponent(".crashed.tessera-partial/video/0.ts"))
        // Meanwhile the window moved on by ten segments (four of them out of the window of six).
        live.origin.advance(parts: 20)
        options.resume = .required
        options.duration = .seconds(40)
        let resumed = Lock<(segments: Int, gaps: Int)?>(nil)
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options, query: "?token=rotated", to: crashed).run { event in
            switch event {
            case .job(.resumed(let segments, let gaps, _)): resumed.withLock { $0 = (segments, gaps) }
            case .progress(let progress): publisher.publish(after: progress)
            default: break
            }
        }
        #expect(resumed.withLock { $0 }?.segments ?? 0 >= 4, "the checkpoint's segments were kept")
        #expect(report.end == .duration)
        let verification = PackageStore(folder: crashed).verify()
        #expect(verification.isVerified, "\(verification.findings)")
        let bytes = try #require(verification.playlists["video/index.m3u8"])
        guard case .media(let playlist) = try PlaylistParser().parse(bytes).playlist else { Issue.record("not a media playlist"); return }
        #expect(playlist.segments.map(\.mediaSequence) == Array(0...UInt64(playlist.segments.count - 1)), "every media sequence accounted for")
        #expect(report.gaps > 0 && playlist.segments.contains(where: \.isGap), "what left the window while it was down is a gap")
        #expect(try Data(contentsOf: crashed.appendingPathComponent("video/0.ts")) == before, "the file from before the crash, kept")
        #expect(!fileManager.fileExists(atPath: parent.appendingPathComponent(".crashed.tessera-timeline").path), "no checkpoint left after the commit")

        // Nothing to resume: --resume insists and fails.
        var insist = LiveRecording.Options()
        insist.resume = .required
        await #expect(throws: HLSError.self) { try await live.recording(insist, to: parent.appendingPathComponent("fresh")).run() }
        #expect(!fileManager.fileExists(atPath: parent.appendingPathComponent(".fresh.tessera-partial").path))
    }

    @Test("a pathway that dies mid-recording: the recording moves to the same STABLE-VARIANT-ID on the other pathway, nothing lost, nothing twice")
    func steeringFailover() async throws {
        let fixtures = try (0..<4).map { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.partsPerSegment = 2
        configuration.canSkipUntil = nil
        configuration.segmentExtension = "ts"
        let origins = try SteeredLiveOrigins(configuration, published: 12, media: fixtures)
        let (hostA, hostB) = (origins.a, origins.b)
        let folder = try TemporaryDirectory()
        let destination = folder.url.appendingPathComponent("rec")
        var clientConfiguration = HLSClient.defaultConfiguration
        clientConfiguration.retry = .never
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.duration = .seconds(20)
        options.bounds.resourceDeadline = nil
        // A clock that never moves: the steering TTL and the penalty last for ever.
        let recording = LiveRecording(url: origins.masterURL, destination: destination,
                                      client: HLSClient(transport: hostA.transport, configuration: clientConfiguration, clock: ManualClock()), options: options)
        let moved = Lock(false)
        let publisher = Publisher(hostA.origin, hostB.origin)
        let report = try await recording.run { event in
            switch event {
            case .progress(let progress):
                // Pathway A dies for good once the first segment is in: whatever it published
                // after that only B can serve.
                if progress.segments >= 1 { hostA.origin.setOutage(true) }
                publisher.publish(after: progress)
            case .job(.reload(.pathwayChanged("A", "B", _))): moved.withLock { $0 = true }
            default: break
            }
        }
        #expect(moved.withLock { $0 }, "moved to pathway B")
        #expect(report.end == .duration && report.gaps == 0 && report.segments == 10)
        let fromB = hostB.origin.log.filter { $0.hasSuffix(".ts") }
        #expect(!fromB.isEmpty && fromB.count == Set(fromB).count, "the segments A could not serve came from B, each once: \(fromB)")
        let verification = PackageStore(folder: destination).verify()
        #expect(verification.isVerified, "\(verification.findings)")
        for msn in 0..<10 {
            #expect(Array(try Data(contentsOf: destination.appendingPathComponent("video/\(msn).ts"))) == fixtures[msn % 4])
        }
    }

    @Test("a cancelled recording commits nothing but keeps its checkpoints: the next run resumes it")
    func cancelThenResume() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        #expect(await Self.cancel(live.recording(options), after: 3)?.code == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: live.destination.path), "nothing committed")
        options.resume = .required
        options.duration = .seconds(16)
        let resumed = Lock(0)
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { event in
            switch event {
            case .job(.resumed(let segments, let gaps, _)):
                resumed.withLock { $0 = segments }
                publisher.publish(total: segments + gaps)    // every written segment restored: the next ones must come
            case .progress(let progress): publisher.publish(after: progress)
            default: break
            }
        }
        #expect(resumed.withLock { $0 } >= 3 && report.end == .duration)
        _ = try live.verified()
    }

    @Test("hostile checkpoints (a torn last line, garbage, a log of another format): the recording resumes what they still prove or starts over, never trusts the rest")
    func hostileCheckpoints() async throws {
        for damage in ["torn", "garbage", "foreign"] {
            let live = try Live()
            let parent = live.destination.deletingLastPathComponent()
            var options = LiveRecording.Options()
            options.start = .windowStart
            let copied = try await Self.crashCopy(live, options, as: "hurt")
            #expect(copied.isEmpty, "\(copied)")
            for suffix in ["checkpoint", "timeline"] {
                let url = parent.appendingPathComponent(".hurt.tessera-\(suffix)")
                var bytes = try Data(contentsOf: url)
                switch damage {
                case "torn": bytes = bytes.prefix(bytes.count - 7)
                case "garbage": bytes.append(contentsOf: Array("{\"entry\": {\"sequence\": \"x\"}}\n\u{0}\u{1}not json\n".utf8))
                default: bytes = Data("{\"format\":99,\"plan\":\"elsewhere\"}\n".utf8)
                }
                try bytes.write(to: url)
            }
            options.duration = .seconds(16)
            let publisher = Publisher(live.origin)
            let report = try await live.recording(options, to: parent.appendingPathComponent("hurt")).run { publisher.follow($0) }
            #expect(report.end == .duration, "\(damage): \(report.end)")
            let verification = PackageStore(folder: parent.appendingPathComponent("hurt")).verify()
            #expect(verification.isVerified, "\(damage): \(verification.findings)")
            for msn in 0..<report.segments {
                let stored = try Data(contentsOf: parent.appendingPathComponent("hurt/video/\(msn).ts"))
                #expect(Array(stored) == (try FixtureStore.bytes("a_ts_vod/seg_00\(msn % 4).ts")), "\(damage): segment \(msn)")
            }
        }
    }
}
