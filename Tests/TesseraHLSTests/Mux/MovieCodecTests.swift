import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraSupport
import TesseraTestSupport

@Suite("Movie download: the codecs of MPEG-TS ladders beyond H.264 and AAC")
struct MovieCodecTests {
    /// A 4 s presentation made by ffmpeg's own HLS muxer (MPEG-TS, 2 s segments) with the video
    /// and audio `codec` arguments, served under `/t/<name>/`; returns the playlist's path and
    /// its segments joined into one file (the reference).
    static func presentation(_ harness: PackageHarness, _ name: String, _ codec: [String]) throws -> (path: String, joined: String) {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"), "Scripts/bootstrap.sh installs ffmpeg")
        let folder = harness.root.url.appendingPathComponent("t/\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25",
                                                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "4"] + codec
                                                    + ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", folder.appendingPathComponent("index.m3u8").path])
        try #require(made.status == 0, "\(made.errors)")
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ts") }.sorted()
        let joined = harness.folder.url.appendingPathComponent("\(name)-joined.ts")
        try Data(segments.flatMap { try [UInt8](Data(contentsOf: folder.appendingPathComponent($0))) }).write(to: joined)
        return ("/t/\(name)/index.m3u8", joined.path)
    }

    /// Muxes `path` into an MP4 and checks it: ffmpeg decodes it silently, its pictures and sound
    /// are the source's frame for frame, and ffprobe names the codecs and sample entries; then
    /// into an MPEG-TS, its frames the source's too.
    static func check(_ harness: PackageHarness, _ source: (path: String, joined: String), name: String,
                      video: (codec: String, tag: String), audio: (codec: String, tag: String)) async throws {
        let movie = harness.folder.url.appendingPathComponent("\(name).mp4")
        let report = try await MovieDownloadTests.job(harness, source.path, to: "\(name).mp4").run()
        #expect(report.tracks.map(\.kind) == [.video, .audio] && report.tracks[0].samples == 100, "\(report.tracks)")
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        let decode = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", movie.path, "-map", "0", "-f", "null", "-"])
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
        #expect(try MovieDownloadTests.frames(movie.path, "0:v") == MovieDownloadTests.frames(source.joined, "0:v"))
        #expect(try MovieDownloadTests.frames(movie.path, "0:a") == MovieDownloadTests.frames(source.joined, "0:a"))
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let streams = try ExternalProcess.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,codec_tag_string", "-of", "csv=p=0", movie.path]).output
        // Each line "codec,tag" (ffprobe adds a field of side data for some audio codecs).
        let found: [String] = streams.split(separator: "\n").map { line in line.split(separator: ",").prefix(2).joined(separator: ",") }
        #expect(found == ["\(video.codec),\(video.tag)", "\(audio.codec),\(audio.tag)"], "\(streams)")
        let result = MediaValidation.validate(try #require(MP4FileSource(path: movie.path)))
        #expect(result.isProgressiveMP4 && result.firstError == nil)
        // The same tracks as one MPEG-TS: the frames as the source's, the stream types ffprobe knows.
        let transport = harness.folder.url.appendingPathComponent("\(name).ts").path
        _ = try await MovieDownloadTests.job(harness, source.path, to: "\(name).ts", writing: MovieTransportStreamTests.writing).run()
        #expect(try MovieTransportStreamTests.validates(transport))
        for stream in ["0:v", "0:a"] {
            #expect(try MovieDownloadTests.frames(transport, stream) == MovieDownloadTests.frames(source.joined, stream), "MPEG-TS \(stream)")
        }
        let codecs = try ExternalProcess.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", transport]).output
        // Listed under the program, then again on their own.
        #expect(codecs.split(separator: "\n").prefix(2).map(String.init) == [video.codec, audio.codec], "\(codecs)")
    }

    @Test("H.265 video and AC-3 audio become hvc1 (hvcC, parameter sets out of band) and ac-3 (dac3), frame for frame")
    func hevcAC3() async throws {
        let harness = try PackageHarness()
        let source = try Self.presentation(harness, "hevc", ["-c:v", "libx265", "-x265-params", "log-level=error:keyint=25:min-keyint=25", "-c:a", "ac3", "-b:a", "192k"])
        try await Self.check(harness, source, name: "hevc", video: ("hevc", "hvc1"), audio: ("ac3", "ac-3"))
    }

    @Test("E-AC-3 audio becomes ec-3 (dec3), frame for frame")
    func eac3() async throws {
        let harness = try PackageHarness()
        let source = try Self.presentation(harness, "eac3", ["-c:v", "libx264", "-g", "25", "-c:a", "eac3", "-b:a", "128k"])
        try await Self.check(harness, source, name: "eac3", video: ("h264", "avc1"), audio: ("eac3", "ec-3"))
    }

    @Test("MP3 audio becomes mp4a with the MPEG-1 audio object type, frame for frame")
    func mp3() async throws {
        let harness = try PackageHarness()
        let source = try Self.presentation(harness, "mp3", ["-c:v", "libx264", "-g", "25", "-c:a", "libmp3lame", "-b:a", "128k"])
        try await Self.check(harness, source, name: "mp3", video: ("h264", "avc1"), audio: ("mp3", "mp4a"))
    }
}
