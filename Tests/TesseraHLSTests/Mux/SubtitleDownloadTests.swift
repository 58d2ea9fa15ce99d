import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraSupport
import TesseraTestSupport

@Suite("Subtitle downloads: one track alone as .vtt or .srt, and beside a movie")
struct SubtitleDownloadTests {
    static func job(_ harness: PackageHarness, _ path: String, to name: String, subtitles: String = "default", content: MovieDownload.Content = .subtitles,
                    format: SubtitleFormat = .webVTT) throws -> MovieDownload {
        try MovieDownloadTests.job(harness, path, subtitles: subtitles, to: name, writing: MovieDownload.Writing(content: content, subtitleFormat: format))
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test("a subtitles media playlist given alone is one .vtt on the playlist's timeline, or a numbered .srt; ffmpeg reads both")
    func mediaPlaylist() async throws {
        let harness = try PackageHarness()
        let vtt = try await Self.job(harness, "/e_multivariant/hi/index_vtt.m3u8", to: "subs.vtt").run()
        #expect(vtt.tracks.map(\.kind) == [.subtitles] && vtt.tracks.map(\.language) == ["und"] && vtt.tracks.map(\.samples) == [3])
        // The map's MPEGTS (the media's time at the first segment) is time 0: cue times as written.
        #expect(try Self.text(vtt.destination) == "WEBVTT\n\n00:00:00.080 --> 00:00:01.580\nFirst cue\n\n00:00:01.580 --> 00:00:03.080\nSecond cue\n\n00:00:03.080 --> 00:00:04.080\nThird cue\n")
        let srt = try await Self.job(harness, "/e_multivariant/hi/index_vtt.m3u8", to: "subs.srt", format: .subRip).run()
        let written = try Self.text(srt.destination)
        #expect(written == "1\n00:00:00,080 --> 00:00:01,580\nFirst cue\n\n2\n00:00:01,580 --> 00:00:03,080\nSecond cue\n\n3\n00:00:03,080 --> 00:00:04,080\nThird cue\n")
        #expect(SHA256Hasher.hash(Array(written.utf8)) == srt.sha256 && UInt64(written.utf8.count) == srt.byteCount)
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"), "Scripts/bootstrap.sh installs ffmpeg")
        for url in [vtt.destination, srt.destination] {
            let read = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", url.path, "-f", "srt", "-"])
            #expect(read.status == 0 && read.errors.isEmpty && read.output.contains("00:00:03,080 --> 00:00:04,080\nThird cue"), "\(read.errors)")
        }
        #expect(harness.origin.log.allSatisfy { !$0.path.hasSuffix(".ts") }, "no media is fetched for subtitles alone")
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("from a multivariant playlist: the one rendition chosen; none or several chosen is refused before any fetch")
    func chosenRendition() async throws {
        let harness = try PackageHarness()
        let report = try await Self.job(harness, "/e_multivariant/master.m3u8", to: "subs.vtt", subtitles: "name:subtitle_1").run()
        #expect(report.tracks.map(\.samples) == [3] && report.plan.tracks.map(\.role) == [.subtitles])
        for (choice, word) in [("default", "none"), ("all", "several")] {
            let refused = await #expect(throws: HLSError.self) {
                try await Self.job(harness, "/e_multivariant/master.m3u8", to: "\(choice).vtt", subtitles: choice).run()
            }
            #expect(refused?.code == .noMatchingVariant && refused?.message.contains("chose \(word)") == true, "\(String(describing: refused))")
            #expect(!FileManager.default.fileExists(atPath: harness.folder.url.appendingPathComponent("\(choice).vtt").path))
        }
        #expect(harness.origin.log.allSatisfy { !$0.path.hasSuffix(".ts") })
    }

    @Test("a subtitles playlist given for a movie or a byte-exact file is refused before any fetch, naming -o .vtt or .srt")
    func wrongOutput() async throws {
        let harness = try PackageHarness()
        let movie = await #expect(throws: HLSError.self) {
            try await Self.job(harness, "/e_multivariant/hi/index_vtt.m3u8", to: "movie.mp4", content: .movie).run()
        }
        #expect(movie?.code == .unsupported && movie?.message.contains("-o <name>.vtt or <name>.srt") == true, "\(String(describing: movie))")
        let file = harness.folder.url.appendingPathComponent("subs.ts")
        let stream = await #expect(throws: HLSError.self) {
            try await SingleFileDownload(playlistURL: harness.origin.url("/e_multivariant/hi/index_vtt.m3u8"), destination: file,
                                         client: HLSClient(transport: harness.transport)).run()
        }
        #expect(stream?.code == .unsupported && stream?.message.contains("subtitles playlist") == true, "\(String(describing: stream))")
        #expect(harness.origin.log.allSatisfy { $0.path.hasSuffix(".m3u8") })
    }

    /// The movie fixture's subtitles, AES-128 encrypted, with a map whose cue times run ahead
    /// of the MPEG-2 clock (LOCAL 10 s ↔ MPEGTS 126,000) and a cue repeated across a boundary.
    static func encryptedSubtitles(_ harness: PackageHarness) throws {
        let key = (0..<16).map { UInt8($0 * 7 & 0xFF) }
        let segments = [
            "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:10.000,MPEGTS:126000\n\n00:00:10.080 --> 00:00:11.580\nFirst cue\n\n00:00:11.500 --> 00:00:12.500\nAcross\n",
            "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:10.000,MPEGTS:126000\n\n00:00:05.000 --> 00:00:05.500\nLong before\n\n00:00:11.500 --> 00:00:12.500\nAcross\n\n00:00:12.580 --> 00:00:13.080\nSecond cue\n",
        ]
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\"\n"
        for (index, text) in segments.enumerated() {
            var iv = [UInt8](repeating: 0, count: 16)
            iv[15] = UInt8(index)    // no IV attribute: the media sequence number is the IV
            _ = try harness.root.write("t/subs/s\(index).vtt", AES128CBCEncryption.encrypt(Array(text.utf8), key: key, iv: iv))
            playlist += "#EXTINF:2.0,\ns\(index).vtt\n"
        }
        _ = try harness.root.write("t/subs/k.bin", key)
        _ = try harness.root.write("t/subs/index.m3u8", Array((playlist + "#EXT-X-ENDLIST\n").utf8))
    }

    static let encryptedMaster = """
    #EXTM3U
    #EXT-X-VERSION:3
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="../e_multivariant/audio/index.m3u8"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=YES,URI="subs/index.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.4d400c,mp4a.40.2",RESOLUTION=320x180,AUDIO="aud",SUBTITLES="subs"
    ../e_multivariant/hi/index.m3u8
    """

    @Test("AES-128 subtitle segments with a map whose cue times run ahead of the MPEG-2 clock land on the movie's clock: a cue across a boundary once, one before the movie dropped; --subtitle-format srt")
    func encryptedBesideMovie() async throws {
        let harness = try PackageHarness(extra: ["t/enc.m3u8": Self.encryptedMaster])
        try Self.encryptedSubtitles(harness)
        let report = try await Self.job(harness, "/t/enc.m3u8", to: "movie.mp4", content: .movie, format: .subRip).run()
        #expect(report.subtitles.map(\.lastPathComponent) == ["movie.fr.srt"])
        // Cue time 10.080 s ↔ MPEG-2 133,200: 21 ms after the movie's first audio frame (131,280).
        #expect(try Self.text(report.subtitles[0]) == "1\n00:00:00,021 --> 00:00:01,521\nFirst cue\n\n2\n00:00:01,441 --> 00:00:02,441\nAcross\n\n3\n00:00:02,521 --> 00:00:03,021\nSecond cue\n")
        let alone = try await Self.job(harness, "/t/subs/index.m3u8", to: "alone.vtt").run()
        // Alone, the map point is time 0: cue time 10.080 s is 0.080 s.
        #expect(try Self.text(alone.destination).hasPrefix("WEBVTT\n\n00:00:00.080 --> 00:00:01.580\nFirst cue\n\n00:00:01.500 --> 00:00:02.500\nAcross\n\n00:00:02.580"))
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("--embed-subtitles: each chosen track is a timed-text (tx3g) track of the MP4 with its name, no file beside it; ffmpeg reads the cues at the movie's times; with --fragmented a typed refusal before any fetch")
    func embedded() async throws {
        let harness = try PackageHarness()
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg")), ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let movie = harness.folder.url.appendingPathComponent("movie.mp4")
        let report = try await MovieDownloadTests.job(harness, "/e_multivariant/master.m3u8", subtitles: "all",
                                                      writing: MovieDownload.Writing(embedsSubtitles: true)).run()
        #expect(report.tracks.map(\.kind) == [.video, .audio, .subtitles, .subtitles] && report.subtitles.isEmpty)
        #expect(report.tracks.last?.samples == 3, "cues, not the empty samples between them")
        let streams = try ExternalProcess.run(ffprobe, ["-v", "error", "-select_streams", "s", "-show_entries", "stream=codec_name:stream_tags=handler_name",
                                                        "-of", "csv=p=0", movie.path]).output
        #expect(streams.split(separator: "\n").map(String.init) == ["mov_text,subtitle_0", "mov_text,subtitle_1"], "\(streams)")
        let read = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", movie.path, "-map", "0:s:1", "-f", "srt", "-"])
        // The sidecar's first cue (see MovieDownloadTests.subtitles): 21 ms after the movie's start
        // (ffmpeg's SubRip writer wraps each in the entry's default font as <font> tags).
        let text = read.output.replacing(/<\/?font[^>]*>/, with: "")
        #expect(read.status == 0 && read.errors.isEmpty && text.hasPrefix("1\n00:00:00,021 --> 00:00:01,521\nFirst cue\n\n2\n"), "\(read.output) \(read.errors)")
        #expect(text.contains("3\n00:00:03,021 --> 00:00:04,021\nThird cue") && !text.contains("\n4\n"), "the empty samples are no cues: \(text)")
        let result = MediaValidation.validate(try #require(MP4FileSource(path: movie.path)))
        #expect(result.isProgressiveMP4 && result.firstError == nil, "\(result.findings)")
        #expect(try harness.hiddenFiles().isEmpty && !FileManager.default.fileExists(atPath: harness.folder.url.appendingPathComponent("movie.subtitle_0.vtt").path))
        // ffmpeg reads a fragmented timed-text track's samples without their durations.
        let fetched = harness.origin.log.count
        let refused = await #expect(throws: HLSError.self) {
            try await MovieDownloadTests.job(harness, "/e_multivariant/master.m3u8", subtitles: "all", to: "f.mp4",
                                             writing: MovieDownload.Writing(fragmented: true, embedsSubtitles: true)).run()
        }
        #expect(refused?.code == .unsupported && harness.origin.log.dropFirst(fetched).allSatisfy { $0.path.hasSuffix(".m3u8") }, "\(String(describing: refused))")
    }
}
