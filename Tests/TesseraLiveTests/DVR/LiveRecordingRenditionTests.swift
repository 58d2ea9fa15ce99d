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

/// Recordings of a presentation with an audio rendition of other segment boundaries and media
/// sequence numbers than the video's (2 s video, 3 s audio, both live on one loopback server):
/// the audio recorded is the span covering the video's, aligned by PROGRAM-DATE-TIME, by a
/// discontinuity both list, or at the live edge with a target duration of margin — never by
/// media sequence number.
@Suite("Live recording of renditions: external audio aligned with the variant, never by media sequence")
struct LiveRecordingRenditionTests {
    final class Presentation: Sendable {
        let host: LiveOriginHost
        let video: LiveOrigin
        let audio: LiveOrigin
        /// An alternative video rendition (another angle: 2 s segments numbered ten ahead of the
        /// variant's, the same dates), with `angle`.
        let angle: LiveOrigin?
        /// A subtitles rendition (WebVTT segments of 2 s, numbered as the variant's), with `subtitles`.
        let subtitles: LiveOrigin?
        let folder: TemporaryDirectory
        let destination: URL

        /// Video of 2 s segments at the root, audio of 3 s ones under `/audio/`, `published`
        /// seconds out; `adjust` changes both configurations.
        init(published: Int = 12, angle: Bool = false, subtitles: Bool = false,
             adjust: (inout LiveOriginPlaylist.Configuration) -> Void = { _ in }) throws {
            func configuration(seconds: Int) -> LiveOriginPlaylist.Configuration {
                var configuration = LiveOriginPlaylist.Configuration()
                configuration.partsPerSegment = seconds
                configuration.canSkipUntil = nil
                configuration.segmentExtension = "ts"
                adjust(&configuration)
                return configuration
            }
            let media = try (0..<4).map { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
            let master = """
                #EXTM3U
                #EXT-X-INDEPENDENT-SEGMENTS
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/live.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Commentary",LANGUAGE="en",URI="audio/live.m3u8"
                #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="vid",NAME="Main",DEFAULT=YES,AUTOSELECT=YES
                #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="vid",NAME="Angle 2",URI="angle/live.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="subs/live.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"\(angle ? ",VIDEO=\"vid\"" : "")\(subtitles ? ",SUBTITLES=\"subs\"" : "")
                live.m3u8

                """
            video = LiveOrigin(configuration(seconds: 2), published: published, media: media,
                               files: ["/master.m3u8": ("application/vnd.apple.mpegurl", Array(master.utf8))])
            audio = LiveOrigin(configuration(seconds: 3), published: published, media: media.reversed())
            var angleConfiguration = configuration(seconds: 2)
            angleConfiguration.epoch -= 20
            self.angle = angle ? LiveOrigin(angleConfiguration, published: published + 20, media: Array(media[1...] + media[..<1])) : nil
            var subtitleConfiguration = configuration(seconds: 2)
            subtitleConfiguration.segmentExtension = "vtt"
            let cues = try (0..<4).map { try FixtureStore.bytes("e_multivariant/lo/index\($0).vtt") }
            self.subtitles = subtitles ? LiveOrigin(subtitleConfiguration, published: published, media: cues) : nil
            host = try LiveOriginHost(LiveOriginGroup(main: video, folders: ["audio": audio, "angle": self.angle, "subs": self.subtitles].compactMapValues { $0 }))
            folder = try TemporaryDirectory()
            destination = folder.url.appendingPathComponent("rec")
        }

        /// A recording of the multivariant playlist on an immediate clock.
        func recording(_ options: LiveRecording.Options) -> LiveRecording {
            var options = options
            options.bounds.resourceDeadline = nil
            var configuration = HLSClient.defaultConfiguration
            configuration.retry = .never
            let client = HLSClient(transport: host.transport, configuration: configuration, clock: ImmediateClock())
            return LiveRecording(url: host.server.baseURL.appendingPathComponent("master.m3u8"), destination: destination,
                                 client: client, options: options)
        }

        /// Records, the origins publishing `ahead` video segments more than accounted for.
        func record(_ options: LiveRecording.Options, ahead: Int) async throws -> RecordingReport {
            let publisher = LiveRecordingTests.Publisher(ahead: ahead, origins: [video, audio] + [angle, subtitles].compactMap { $0 })
            return try await recording(options).run { event in
                if case .progress(let progress) = event { publisher.publish(after: progress) }
            }
        }

        /// Records `seconds` of media, two segments ahead, with the selection `selecting` makes.
        func record(seconds: Int, selecting: (inout SelectionPolicy) -> Void) async throws -> RecordingReport {
            var options = LiveRecording.Options()
            options.duration = .seconds(seconds)
            selecting(&options.selection)
            return try await record(options, ahead: 2)
        }

        func playlist(_ path: String, _ verification: PackageVerification) throws -> MediaPlaylist {
            let bytes = try #require(verification.playlists[path])
            guard case .media(let playlist) = try PlaylistParser().parse(bytes).playlist else {
                Issue.record("\(path) is not a media playlist")
                return MediaPlaylist()
            }
            return playlist
        }

        /// The recorded video and audio playlists of a verified package.
        func recorded() throws -> (video: MediaPlaylist, audio: MediaPlaylist, verification: PackageVerification) {
            let verification = PackageStore(folder: destination).verify()
            #expect(verification.isVerified, "\(verification.findings)")
            return (try playlist("video/index.m3u8", verification), try playlist("audio-1/index.m3u8", verification), verification)
        }
    }

    /// The real span (seconds from the stream's start) a recorded playlist of `seconds`-long
    /// segments covers (its media sequence numbers are the origin's).
    static func span(_ playlist: MediaPlaylist, seconds: Int) -> ClosedRange<UInt64> {
        let first = playlist.segments.first?.mediaSequence ?? 0
        let last = playlist.segments.last?.mediaSequence ?? 0
        return first * UInt64(seconds)...(last + 1) * UInt64(seconds)
    }

    @Test("by PROGRAM-DATE-TIME: the audio segments covering the video's span exactly, each fetched once, in the master as the rendition it was")
    func byProgramDateTime() async throws {
        let live = try Presentation()
        var options = LiveRecording.Options()
        options.duration = .seconds(6)
        let report = try await live.record(options, ahead: 2)
        #expect(report.end == .duration && report.segments == 3)
        let (video, audio, verification) = try live.recorded()
        // Video from now: segment 5 ([10, 12)), 6 s of it: [10, 16). Audio of 3 s: [9, 12), [12, 15), [15, 18).
        #expect(video.segments.map(\.mediaSequence) == [5, 6, 7])
        #expect(audio.segments.map(\.mediaSequence) == [3, 4, 5], "the span covering [10, 16), not media sequences 5–7")
        #expect(audio.segments.first?.programDateTime?.secondsSince1970 == 1_790_000_009)
        let audioMedia = live.audio.log.filter { $0.hasSuffix(".ts") }
        #expect(audioMedia == ["/s3.ts", "/s4.ts", "/s5.ts"], "each once: \(audioMedia)")
        let bytes = try Data(contentsOf: live.destination.appendingPathComponent("audio-1/4.ts"))
        #expect(Array(bytes) == (try FixtureStore.bytes("a_ts_vod/seg_003.ts")), "the audio origin's segment 4 (its media cycled in reverse)")
        let manifest = try #require(verification.manifest)
        #expect(manifest.tracks.map(\.id) == ["video", "audio-1"])
        #expect(manifest.tracks[1].role == .audio && manifest.tracks[1].name == "English" && manifest.tracks[1].groupId == "aud")
        #expect(manifest.tracks[1].provenance.contains("program-date-time"), "\(manifest.tracks[1].provenance)")
        let master = String(decoding: try #require(verification.playlists["master.m3u8"]), as: UTF8.self)
        #expect(master.contains("NAME=\"English\"") && master.contains("URI=\"audio-1/index.m3u8\""), "\(master)")
        #expect(!master.contains("Commentary"), "only the rendition recorded: \(master)")
    }

    @Test("an alternative video rendition (--video all) is recorded beside the variant's stream, aligned by date, listed in the master's VIDEO group")
    func alternativeVideo() async throws {
        let live = try Presentation(angle: true)
        let report = try await live.record(seconds: 6) { $0.video = RenditionPolicy(.all) }
        #expect(report.end == .duration && report.segments == 3)
        let (video, _, verification) = try live.recorded()
        let angle = try live.playlist("alternative-video-1/index.m3u8", verification)
        #expect(video.segments.map(\.mediaSequence) == [5, 6, 7])
        #expect(angle.segments.map(\.mediaSequence) == [15, 16, 17], "the same dates, ten media sequences on")
        #expect(angle.segments.map { $0.programDateTime?.secondsSince1970 } == video.segments.map { $0.programDateTime?.secondsSince1970 })
        let bytes = try Data(contentsOf: live.destination.appendingPathComponent("alternative-video-1/16.ts"))
        #expect(Array(bytes) == (try FixtureStore.bytes("a_ts_vod/seg_001.ts")), "the angle's segment 16 (its media cycled one on)")
        let manifest = try #require(verification.manifest)
        #expect(manifest.tracks.map(\.id) == ["video", "audio-1", "alternative-video-1"])
        #expect(manifest.tracks[2].role == .alternativeVideo && manifest.tracks[2].name == "Angle 2" && manifest.tracks[2].groupId == "vid")
        let master = String(decoding: try #require(verification.playlists["master.m3u8"]), as: UTF8.self)
        #expect(master.contains("TYPE=VIDEO,GROUP-ID=\"vid\",NAME=\"Angle 2\"") && master.contains("URI=\"alternative-video-1/index.m3u8\""), "\(master)")
        #expect(master.contains("NAME=\"Main\"") && master.contains("VIDEO=\"vid\""), "the variant's own view kept as the group's default: \(master)")
    }

    @Test("a subtitles rendition (--subtitles all) is recorded aligned beside the variant: its WebVTT segments as served, in the master's SUBTITLES group")
    func subtitleRendition() async throws {
        let live = try Presentation(subtitles: true)
        _ = try await live.record(seconds: 6) { $0.subtitles = RenditionPolicy(.all) }
        let (video, _, verification) = try live.recorded()
        let subtitles = try live.playlist("subtitles-1/index.m3u8", verification)
        #expect(subtitles.segments.map(\.mediaSequence) == video.segments.map(\.mediaSequence), "2 s cues numbered as the video's")
        for segment in subtitles.segments {
            let bytes = try Data(contentsOf: live.destination.appendingPathComponent("subtitles-1/" + segment.uri))
            #expect(Array(bytes) == (try FixtureStore.bytes("e_multivariant/lo/index\(segment.mediaSequence % 4).vtt")), "cue segment \(segment.mediaSequence)")
        }
        let manifest = try #require(verification.manifest)
        #expect(manifest.tracks.map(\.id) == ["video", "audio-1", "subtitles-1"] && manifest.tracks[2].role == .subtitles)
        #expect(manifest.tracks[2].provenance.contains("program-date-time"))
        let master = String(decoding: try #require(verification.playlists["master.m3u8"]), as: UTF8.self)
        #expect(master.contains("TYPE=SUBTITLES") && master.contains("URI=\"subtitles-1/index.m3u8\"") && master.contains("SUBTITLES=\"subs\""), "\(master)")
    }

    @Test("alternative video is not recorded unless asked: a player shows the variant's stream")
    func alternativeVideoByDefault() async throws {
        let live = try Presentation(angle: true)
        var options = LiveRecording.Options()
        options.duration = .seconds(4)
        _ = try await live.record(options, ahead: 2)
        let (_, _, verification) = try live.recorded()
        #expect(verification.manifest?.tracks.map(\.id) == ["video", "audio-1"])
        #expect(live.angle?.log.isEmpty == true, "the angle's origin never asked")
        let master = String(decoding: try #require(verification.playlists["master.m3u8"]), as: UTF8.self)
        #expect(!master.contains("Angle 2"), "\(master)")
    }

    @Test("without PROGRAM-DATE-TIME, by a discontinuity both list plus accumulated EXTINF: the same exact span")
    func byDiscontinuity() async throws {
        let live = try Presentation {
            $0.programDateTime = false
            $0.discontinuityEvery = 6
        }
        var options = LiveRecording.Options()
        options.duration = .seconds(6)
        _ = try await live.record(options, ahead: 2)
        let (video, audio, verification) = try live.recorded()
        #expect(video.segments.map(\.mediaSequence) == [5, 6, 7])
        #expect(audio.segments.map(\.mediaSequence) == [3, 4, 5], "aligned on the domain that began at 6 s, then on the one at 12 s")
        #expect(video.segments.map(\.discontinuitySequence) == [1, 2, 2] && audio.segments.map(\.discontinuitySequence) == [1, 2, 2])
        #expect(video.segments[1].isDiscontinuity && audio.segments[1].isDiscontinuity)
        #expect(verification.manifest?.tracks[1].provenance.contains("discontinuity") == true)
    }

    @Test("without dates or a shared discontinuity, at the live edge with a target duration of margin: the audio covers the video's whole span")
    func atLiveEdge() async throws {
        // 14 s out at tune-in: the video's edge is at 14 s, the audio's at 12 s (its segment of
        // [12, 15) is not complete): taken as one edge, the audio is placed 2 s off; the margin
        // of one audio target duration covers it.
        let live = try Presentation(published: 14) { $0.programDateTime = false }
        var options = LiveRecording.Options()
        options.duration = .seconds(6)
        _ = try await live.record(options, ahead: 4)
        let (video, audio, verification) = try live.recorded()
        let videoSpan = Self.span(video, seconds: 2)
        let audioSpan = Self.span(audio, seconds: 3)
        #expect(audioSpan.lowerBound <= videoSpan.lowerBound && audioSpan.upperBound >= videoSpan.upperBound, "audio \(audioSpan) covers video \(videoSpan)")
        #expect(videoSpan == 12...18)
        #expect(audioSpan.upperBound - audioSpan.lowerBound <= videoSpan.upperBound - videoSpan.lowerBound + 2 * 3 + 2 * 3,
                "at most a margin and the edge's error each side: \(audioSpan)")
        #expect(verification.manifest?.tracks[1].provenance.contains("live edge") == true)
    }

    @Test("--audio none records the variant alone, its master without the rendition's URI")
    func audioNone() async throws {
        let live = try Presentation()
        var options = LiveRecording.Options()
        options.duration = .seconds(4)
        options.selection.audio = RenditionPolicy(.none)
        _ = try await live.record(options, ahead: 0)
        let verification = PackageStore(folder: live.destination).verify()
        #expect(verification.isVerified, "\(verification.findings)")
        #expect(verification.manifest?.tracks.map(\.id) == ["video"])
        #expect(live.audio.log.allSatisfy { !$0.hasSuffix(".ts") }, "no audio fetched")
    }

    @Test("an interrupted recording with audio resumes both tracks where their checkpoints end: still aligned, nothing twice")
    func resume() async throws {
        let live = try Presentation()
        var options = LiveRecording.Options()
        options.start = .windowStart
        // From the window start the origins are six video segments ahead already.
        let publisher = LiveRecordingTests.Publisher(live.video, live.audio)
        let interrupted = await LiveRecordingTests.cancel(live.recording(options), after: 8) { publisher.publish(after: $0) }
        #expect(interrupted?.code == .cancelled)
        options.resume = .required
        // Past anything the interrupted run can have written: its origins list at most 13 video
        // segments (7 written, 6 ahead) before the resume, however late the cancellation lands.
        options.duration = .seconds(30)
        let resumed = Lock(false)
        // The same publisher: what it published before the interruption is out.
        let again = publisher
        let report = try await live.recording(options).run { event in
            switch event {
            case .job(.resumed(let segments, let gaps, _)):
                resumed.withLock { $0 = true }
                again.publish(total: segments + gaps)
            case .progress(let progress): again.publish(after: progress)
            default: break
            }
        }
        #expect(resumed.withLock { $0 })
        #expect(report.end == .duration && report.gaps == 0, "\(report.end), \(report.gaps) gaps")
        let (video, audio, _) = try live.recorded()
        #expect(video.segments.map(\.mediaSequence) == Array(0...14), "30 s of video from the window start")
        #expect(audio.segments.map(\.mediaSequence) == Array(0...9), "the 3 s audio segments covering [0, 30)")
        // (A fetch the interruption cut short is fetched again; nothing past the video is.)
        #expect(!live.audio.log.contains("/s10.ts"), "\(live.audio.log)")
        for msn in 0...9 {
            let bytes = try Data(contentsOf: live.destination.appendingPathComponent("audio-1/\(msn).ts"))
            #expect(Array(bytes) == (try FixtureStore.bytes("a_ts_vod/seg_00\(3 - msn % 4).ts")), "audio-1/\(msn).ts as served")
        }
    }
}

extension LiveRecordingRenditionTests {
    @Test("an outage of both playlists longer than their windows: each track lists what slid out as estimated gaps, the audio's aligned with the video's")
    func outageBeyondWindows() async throws {
        let live = try Presentation()
        var options = LiveRecording.Options()
        options.start = .windowStart
        let retries = Lock(0)
        let (video, audio) = (live.video, live.audio)
        let written = Lock(0)
        let report = try await live.recording(options).run { event in
            switch event {
            case .progress(let progress):
                let before = written.withLock { count -> Int in defer { count = max(count, progress.segments) }; return count }
                guard progress.segments > before else { return }
                if progress.segments == 6 {
                    video.setOutage(true)
                    audio.setOutage(true)
                } else if progress.segments > 6, progress.segments >= 14 {
                    video.end()
                    audio.end()
                } else if progress.segments > 6 {
                    video.advance(parts: 2)
                    audio.advance(parts: 2)
                }
            case .job(.reload(.retry)):
                // Back after the first retries, 30 s later: more than either window (12 s, 18 s).
                if retries.withLock({ count -> Int in count += 1; return count }) == 4 {
                    video.advance(parts: 30)
                    audio.advance(parts: 30)
                    video.setOutage(false)
                    audio.setOutage(false)
                }
            default: break
            }
        }
        #expect(report.gaps > 0)
        let (videoPlaylist, audioPlaylist, verification) = try live.recorded()
        let videoGaps = videoPlaylist.segments.filter(\.isGap)
        let audioGaps = audioPlaylist.segments.filter(\.isGap)
        #expect(!videoGaps.isEmpty && !audioGaps.isEmpty, "both tracks lost media to the outage")
        #expect(videoPlaylist.segments.map(\.mediaSequence) == Array(videoPlaylist.segments.first!.mediaSequence...videoPlaylist.segments.last!.mediaSequence))
        #expect(audioPlaylist.segments.map(\.mediaSequence) == Array(audioPlaylist.segments.first!.mediaSequence...audioPlaylist.segments.last!.mediaSequence))
        // The audio's hole lies where the video's does (by their dates: 2 s and 3 s segments).
        let videoHole = (videoGaps.first!.mediaSequence * 2)...((videoGaps.last!.mediaSequence + 1) * 2)
        let audioHole = (audioGaps.first!.mediaSequence * 3)...((audioGaps.last!.mediaSequence + 1) * 3)
        #expect(audioHole.overlaps(videoHole), "audio hole \(audioHole) s, video hole \(videoHole) s")
        #expect(verification.manifest?.gaps.filter(\.estimated).map(\.track).contains("audio-1") == true)
        let videoSpan = Self.span(videoPlaylist, seconds: 2), audioSpan = Self.span(audioPlaylist, seconds: 3)
        #expect(audioSpan.lowerBound <= videoSpan.lowerBound && audioSpan.upperBound >= videoSpan.upperBound, "audio \(audioSpan) covers video \(videoSpan)")
    }
}
