import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraSupport
import TesseraTestSupport

@Suite("Movie download: a ladder's tracks muxed by Tessera into one MP4")
struct MovieDownloadTests {
    /// A movie job for `path` on `harness`'s origin, written as `name` in its folder.
    /// The job's plan as a run on it gets it: its choice, then the movie planned from it.
    static func planned(_ job: MovieDownload) async throws -> PackageDownload.Planned {
        try job.planned(try await job.chosen())
    }

    static func job(_ harness: PackageHarness, _ path: String, audio: String = "default", subtitles: String = "default", to name: String = "movie.mp4",
                    writing: MovieDownload.Writing = MovieDownload.Writing()) throws -> MovieDownload {
        var options = PackageDownload.Options()
        options.capacity = .bestEffort
        options.selection.audio = try #require(RenditionPolicy(audio))
        options.selection.subtitles = try #require(RenditionPolicy(subtitles))
        return MovieDownload(url: harness.origin.url(path), destination: harness.folder.url.appendingPathComponent(name), client: HLSClient(transport: harness.transport),
                             options: options, writing: writing)
    }

    static func destination(_ harness: PackageHarness) -> URL { harness.folder.url.appendingPathComponent("movie.mp4") }

    /// The hashes of `stream`'s decoded frames in `path` (framemd5, timestamps left out);
    /// `passthrough`: every decoded picture once, none repeated or dropped for a constant rate.
    static func frames(_ path: String, _ stream: String, passthrough: Bool = false) throws -> [String] {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"), "Scripts/bootstrap.sh installs ffmpeg")
        let timing = passthrough ? ["-fps_mode", "passthrough"] : []
        let output = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", path, "-map", stream] + timing + ["-f", "framemd5", "-"]).output
        return output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
    }

    /// The fixture files of `folder` joined in playlist order, written under `harness`'s folder.
    static func joined(_ harness: PackageHarness, _ folder: String, _ count: Int, name: String) throws -> String {
        let path = harness.folder.url.appendingPathComponent(name).path
        let bytes = try (0..<count).flatMap { try FixtureStore.bytes("\(folder)/seg_00\($0).ts") }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Expects `movie` (muxed from the multivariant fixture's `hi` variant and its audio rendition)
    /// to decode in ffmpeg without a message, every picture and sound frame as the sources'.
    static func expectMultivariantFrames(_ movie: String, _ harness: PackageHarness) throws {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        let decode = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", movie, "-map", "0", "-f", "null", "-"])
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
        #expect(try frames(movie, "0:v") == frames(try joined(harness, "e_multivariant/hi", 4, name: "hi.ts"), "0:v"))
        #expect(try frames(movie, "0:a") == frames(try joined(harness, "e_multivariant/audio", 5, name: "audio.ts"), "0:a"))
    }

    @Test("a variant whose audio is a separate rendition becomes one MP4: its pictures and the rendition's audio, language and name kept, decoded silently")
    func separateAudio() async throws {
        let harness = try PackageHarness()
        let report = try await Self.job(harness, "/e_multivariant/master.m3u8").run()
        let movie = Self.destination(harness).path
        #expect(report.tracks.map(\.kind) == [.video, .audio] && report.tracks.map(\.samples) == [100, 189])
        #expect(report.tracks.map(\.language) == ["und", "eng"])
        try Self.expectMultivariantFrames(movie, harness)
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let tags = try ExternalProcess.run(ffprobe, ["-v", "error", "-select_streams", "a", "-show_entries", "stream_tags=language,handler_name", "-of", "compact", movie]).output
        #expect(tags.contains("tag:language=eng") && tags.contains("tag:handler_name=audio_2"))
        let bytes = try [UInt8](Data(contentsOf: Self.destination(harness)))
        #expect(SHA256Hasher.hash(bytes) == report.sha256 && UInt64(bytes.count) == report.byteCount)
        #expect(try harness.hiddenFiles().isEmpty, "no staging folder, checkpoint or lock is left")
    }

    @Test("without its digest a streamed MP4 reports none and is the same file; a muxed MPEG-TS hashes as it writes and always reports it")
    func withoutDigest() async throws {
        let harness = try PackageHarness()
        let hashed = try await Self.job(harness, "/e_multivariant/master.m3u8").run()
        for fragmented in [false, true] {
            let name = fragmented ? "plain-fragmented.mp4" : "plain.mp4"
            let plain = try await Self.job(harness, "/e_multivariant/master.m3u8", to: name,
                                           writing: MovieDownload.Writing(fragmented: fragmented, digest: false)).run()
            #expect(plain.sha256 == nil)
            if !fragmented {
                #expect(try Data(contentsOf: plain.destination) == Data(contentsOf: hashed.destination))
            }
        }
        let stream = try await Self.job(harness, "/e_multivariant/master.m3u8", to: "movie.ts",
                                        writing: MovieDownload.Writing(container: .transportStream, digest: false)).run()
        #expect(stream.sha256 == SHA256Hasher.hash(try [UInt8](Data(contentsOf: stream.destination))))
    }

    @Test("a run on the plan a dry plan just made loads no playlist again and writes the file a plain run writes")
    func runOnPlanned() async throws {
        let harness = try PackageHarness()
        let job = try Self.job(harness, "/e_multivariant/master.m3u8")
        let planned = try await Self.planned(job)
        let playlists = harness.origin.log.filter { $0.path.hasSuffix(".m3u8") }.count
        #expect(playlists >= 2, "the plan loaded the multivariant playlist and the chosen media playlists")
        let report = try await job.run(planned: planned) { _ in }
        #expect(harness.origin.log.filter { $0.path.hasSuffix(".m3u8") }.count == playlists, "no playlist was loaded again")
        let plain = try await Self.job(harness, "/e_multivariant/master.m3u8", to: "plain.mp4").run()
        #expect(report.sha256 == plain.sha256 && report.byteCount == plain.byteCount)
        #expect(report.tracks.map(\.samples) == [100, 189])
    }

    static let fragmentedLadder = """
    #EXTM3U
    #EXT-X-VERSION:7
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",DEFAULT=YES,URI="../b_fmp4_audio/index.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.4d400b,mp4a.40.2",RESOLUTION=160x90,AUDIO="aud"
    ../b_fmp4_video/index.m3u8
    """

    @Test("a fragmented MP4 variant with a separate fMP4 audio rendition becomes one MP4: samples and sample entries as the source's, decoded silently")
    func fragmentedSources() async throws {
        let harness = try PackageHarness(extra: ["t/fmp4.m3u8": Self.fragmentedLadder])
        let report = try await Self.job(harness, "/t/fmp4.m3u8").run()
        #expect(report.tracks.map(\.kind) == [.video, .audio] && report.tracks.map(\.samples) == [100, 189])
        #expect(report.tracks.map(\.language) == ["und", "deu"])
        let movie = Self.destination(harness).path
        for (stream, folder, segments) in [("0:v", "b_fmp4_video", 4), ("0:a", "b_fmp4_audio", 5)] {
            let path = harness.folder.url.appendingPathComponent("\(folder).mp4").path
            let bytes = try FixtureStore.bytes("\(folder)/init.mp4") + (0..<segments).flatMap { try FixtureStore.bytes("\(folder)/seg_00\($0).m4s") }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try Self.frames(movie, stream) == Self.frames(path, stream), "\(stream)")
        }
    }

    @Test("each chosen WebVTT subtitle track is written beside the movie, its cues on the movie's clock; ffmpeg reads the files")
    func subtitles() async throws {
        let harness = try PackageHarness()
        let report = try await Self.job(harness, "/e_multivariant/master.m3u8", subtitles: "all").run()
        #expect(report.subtitles.map(\.lastPathComponent) == ["movie.subtitle_0.vtt", "movie.subtitle_1.vtt"])
        let text = try String(contentsOf: report.subtitles[0], encoding: .utf8)
        // The first cue: cue time 0.080 s at MPEG-2 133,200, 21 ms after the movie's first audio frame.
        #expect(text.hasPrefix("WEBVTT\n\n00:00:00.021 --> 00:00:01.521\nFirst cue\n"))
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        let read = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", report.subtitles[0].path, "-f", "srt", "-"])
        #expect(read.status == 0 && read.errors.isEmpty && read.output.contains("00:00:00,021 --> 00:00:01,521\nFirst cue"), "\(read.errors)")
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("--audio all muxes two languages as two audio tracks of one alternate group, the first enabled; ffmpeg decodes both")
    func twoLanguages() async throws {
        let master = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="../e_multivariant/audio/index.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",URI="../b_fmp4_audio/index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.4d400c,mp4a.40.2",RESOLUTION=320x180,AUDIO="aud"
        ../e_multivariant/hi/index.m3u8
        """
        let harness = try PackageHarness(extra: ["t/two.m3u8": master])
        let report = try await Self.job(harness, "/t/two.m3u8", audio: "all").run()
        #expect(report.tracks.map(\.kind) == [.video, .audio, .audio] && report.tracks.map(\.language) == ["und", "eng", "deu"])
        let movie = Self.destination(harness).path
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let streams = try ExternalProcess.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_type:stream_tags=language:stream_disposition=default",
                                                        "-of", "compact", movie]).output
        #expect(streams.contains("codec_type=audio|disposition:default=1|tag:language=eng"), "\(streams)")
        #expect(streams.contains("codec_type=audio|disposition:default=0|tag:language=deu"), "\(streams)")
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        let decode = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", movie, "-map", "0", "-f", "null", "-"])
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
        #expect(try Self.frames(movie, "0:a:1").count == 189)
    }

    @Test("an .m4a holds the chosen audio alone, branded M4A; from a variant without a rendition, its own audio")
    func audioOnly() async throws {
        let harness = try PackageHarness()
        let m4a = harness.folder.url.appendingPathComponent("song.m4a")
        let report = try await Self.job(harness, "/e_multivariant/master.m3u8", to: "song.m4a", writing: MovieDownload.Writing(content: .audioOnly)).run()
        #expect(report.tracks.map(\.kind) == [.audio] && report.tracks.map(\.samples) == [189])
        let bytes = try [UInt8](Data(contentsOf: m4a))
        #expect(String(decoding: bytes[8..<12], as: UTF8.self) == "M4A ")
        let own = harness.folder.url.appendingPathComponent("own.m4a")
        let variant = try await Self.job(harness, "/a_ts_vod/index.m3u8", to: "own.m4a", writing: MovieDownload.Writing(content: .audioOnly)).run()
        #expect(variant.tracks.map(\.kind) == [.audio])
        #expect(try Self.frames(own.path, "0:a") == Self.frames(try Self.joined(harness, "a_ts_vod", 4, name: "a.ts"), "0:a"))
    }

    @Test("without an audio rendition the variant's own audio is muxed; --audio none leaves it out")
    func variantAudio() async throws {
        let harness = try PackageHarness()
        let report = try await Self.job(harness, "/a_ts_vod/index.m3u8").run()
        #expect(report.tracks.map(\.kind) == [.video, .audio])
        try FileManager.default.removeItem(at: Self.destination(harness))
        let silent = try await Self.job(harness, "/a_ts_vod/index.m3u8", audio: "none").run()
        #expect(silent.tracks.map(\.kind) == [.video])
    }

    @Test("discontinuities with another resolution, profile, audio rate and layout, and a 1,000 s jump, are muxed into one playable file")
    func discontinuities() async throws {
        let harness = try PackageHarness()
        let report = try await Self.job(harness, "/g_discontinuity/index.m3u8").run()
        #expect(report.tracks.map(\.samples) == [160, 278])
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let duration = try ExternalProcess.run(ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                         Self.destination(harness).path]).output
        #expect(Double(duration.split(separator: "\n").first.map(String.init) ?? "") ?? 0 < 6.2, "the runs follow each other: \(duration)")
    }

    @Test("a failed transfer leaves nothing at the destination; the rerun resumes and writes a byte-identical file")
    func failureThenResume() async throws {
        let reference = try PackageHarness()
        let expected = try await Self.job(reference, "/e_multivariant/master.m3u8").run()

        let harness = try PackageHarness()
        harness.origin.inject(.status(404), path: "/e_multivariant/audio/seg_003.ts", attempts: 1...1)
        await #expect(throws: HLSError.self) { try await Self.job(harness, "/e_multivariant/master.m3u8").run() }
        #expect(!FileManager.default.fileExists(atPath: Self.destination(harness).path))
        #expect(try harness.hiddenFiles().contains { $0.hasSuffix(".tessera-checkpoint") })
        let report = try await Self.job(harness, "/e_multivariant/master.m3u8").run()
        #expect(report.resumedResources > 0)
        #expect(report.sha256 == expected.sha256)
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("one fragmented MP4 playlist becomes a progressive MP4 with the same samples, and the whole file passes the MP4 validator")
    func oneFragmentedTrack() async throws {
        let harness = try PackageHarness()
        let report = try await Self.job(harness, "/b_fmp4_video/index.m3u8").run()
        #expect(report.tracks.map(\.kind) == [.video] && report.tracks.map(\.samples) == [100])
        let result = MediaValidation.validate(try #require(MP4FileSource(path: Self.destination(harness).path)))
        #expect(result.isProgressiveMP4 && result.firstError == nil)
    }

    @Test("--fragmented: one fragmented MP4 (iso6, movie fragments) with the progressive file's pictures and sound; a discontinuity's new resolution is carried in band, decoded by ffmpeg frame for frame")
    func fragmented() async throws {
        let harness = try PackageHarness()
        func download(_ path: String, _ name: String, fragmented: Bool, audio: String) async throws -> URL {
            _ = try await Self.job(harness, path, audio: audio, to: name, writing: MovieDownload.Writing(fragmented: fragmented)).run()
            return harness.folder.url.appendingPathComponent(name)
        }
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        for (path, audio, streams) in [("/e_multivariant/master.m3u8", "default", ["0:v", "0:a"]), ("/g_discontinuity/index.m3u8", "none", ["0:v"])] {
            let progressive = try await download(path, "p-\(audio).mp4", fragmented: false, audio: audio)
            let fragmented = try await download(path, "f-\(audio).mp4", fragmented: true, audio: audio)
            let result = MediaValidation.validate(try #require(MP4FileSource(path: fragmented.path)))
            #expect(!result.isProgressiveMP4 && result.firstError == nil, "\(result.findings)")
            // framemd5, not null: the null muxer's encoders take the frame rate ffmpeg guesses from the
            // first fragment (25 fps) as their time base, and a 30 fps run then collides in it.
            let decode = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", fragmented.path, "-map", "0", "-fps_mode", "passthrough",
                                                          "-f", "framemd5", "-"])
            #expect(decode.status == 0 && decode.errors.isEmpty, "\(path): \(decode.errors)")
            for stream in streams {
                #expect(try Self.frames(fragmented.path, stream, passthrough: true) == Self.frames(progressive.path, stream, passthrough: true), "\(path) \(stream)")
            }
        }
    }

    @Test("--fragmented refuses audio whose configuration changes at a discontinuity (ffmpeg would decode it wrongly), nothing published; the progressive file carries it")
    func fragmentedAudioChange() async throws {
        let harness = try PackageHarness()
        let destination = harness.folder.url.appendingPathComponent("g.mp4")
        let refused = await #expect(throws: HLSError.self) {
            try await Self.job(harness, "/g_discontinuity/index.m3u8", to: "g.mp4", writing: MovieDownload.Writing(fragmented: true)).run()
        }
        #expect(refused?.code == .unsupported && refused?.message.contains("without --fragmented") == true, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("refused before any media byte: EXT-X-GAP segments")
    func refusals() async throws {
        let harness = try PackageHarness(extra: ["t/gapped.m3u8": PackageDownloadTests.gapped])
        let gapped = await #expect(throws: HLSError.self) { try await Self.job(harness, "/t/gapped.m3u8").run() }
        #expect(gapped?.code == .unsupported && gapped?.message.contains("EXT-X-GAP") == true && gapped?.message.contains("--allow-gaps") == true)
        #expect(harness.origin.log.allSatisfy { $0.path.hasSuffix(".m3u8") }, "no media was fetched")
        #expect(!FileManager.default.fileExists(atPath: Self.destination(harness).path))
    }

    /// The gapped VOD with its gap after a discontinuity, and the first segment again after it
    /// (its timestamps start over: the join would close the hole).
    static let gapAtJoin = PackageDownloadTests.gapped.replacing("#EXT-X-GAP", with: "#EXT-X-DISCONTINUITY\n#EXT-X-GAP").replacing("seg_002", with: "seg_000")

    @Test("--allow-gaps: an EXT-X-GAP segment inside a run and at a discontinuity is a hole of its length on the file's timeline, reported; ffmpeg decodes it silently")
    func allowedGaps() async throws {
        let harness = try PackageHarness(extra: ["t/gapped.m3u8": PackageDownloadTests.gapped, "t/join.m3u8": Self.gapAtJoin])
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        for path in ["/t/gapped.m3u8", "/t/join.m3u8"] {
            let name = String(path.dropFirst(3)).replacing(".m3u8", with: ".mp4")
            let movie = harness.folder.url.appendingPathComponent(name)
            let report = try await Self.job(harness, path, to: name, writing: MovieDownload.Writing(allowsGaps: true)).run()
            #expect(report.gaps.map(\.duration) == [1.0] && report.tracks.first?.samples == 50, "\(path): \(report.tracks)")
            // The pictures after the hole start a second after the first second's end.
            let times = try ExternalProcess.run(ffprobe, ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time", "-of", "csv=p=0", movie.path])
                .output.split(separator: "\n").compactMap { Double($0) }.sorted()
            let steps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(times.count == 50 && steps.filter { $0 > 0.5 }.count == 1, "\(path): \(times)")
            #expect((1.0...1.1).contains(steps.max() ?? 0), "\(path): the hole lasts \(steps.max() ?? 0) s")
            // passthrough and framemd5: the frame rate ffmpeg guesses around a hole would make the
            // null muxer's encoder time base collide.
            let decode = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", movie.path, "-map", "0", "-fps_mode", "passthrough", "-f", "framemd5", "-"])
            #expect(decode.status == 0 && decode.errors.isEmpty, "\(path): \(decode.errors)")
        }
        #expect(harness.origin.log.allSatisfy { !$0.path.hasSuffix("missing.ts") }, "a gap is never fetched")
    }

    @Test("AES-128 media (MPEG-TS with an explicit IV; fMP4 with its initialization section encrypted too) is decrypted into the same MP4 pictures and sound as the clear source's")
    func encryptedMedia() async throws {
        let harness = try PackageHarness()
        for (encrypted, clear) in [("/c_ts_aes_iv/index.m3u8", "/d_ts_single/index.m3u8"), ("/c_fmp4_aes/enc_encinit.m3u8", "/c_fmp4_aes/clear.m3u8")] {
            var files: [String] = []
            for (index, path) in [encrypted, clear].enumerated() {
                let name = "\(encrypted.split(separator: "/")[0])-\(index).mp4"
                _ = try await Self.job(harness, path, to: name).run()
                files.append(harness.folder.url.appendingPathComponent(name).path)
            }
            for stream in ["0:v", "0:a"] {
                let decoded = try Self.frames(files[0], stream), reference = try Self.frames(files[1], stream)
                #expect(!decoded.isEmpty && decoded == reference, "\(encrypted) \(stream)")
            }
        }
    }
}
