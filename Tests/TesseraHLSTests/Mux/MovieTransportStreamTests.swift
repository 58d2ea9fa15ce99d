import Foundation
import Testing
import TesseraHLS
import TesseraMedia
import TesseraSupport
import TesseraTestSupport

@Suite("Movie download as MPEG-TS: a ladder's tracks muxed by Tessera into one transport stream")
struct MovieTransportStreamTests {
    static let writing = MovieDownload.Writing(container: .transportStream)

    /// Whether the file at `path` passes our transport stream validator without an error.
    static func validates(_ path: String) throws -> Bool {
        let result = MediaValidation.validate(try #require(MP4FileSource(path: path)))
        #expect(result.format == .mpegTS)
        return result.findings.allSatisfy { $0.severity != .error }
    }

    @Test("a variant with a separate audio rendition becomes one MPEG-TS: the source's pictures and sound frame for frame, the rendition's language in the program map")
    func separateAudio() async throws {
        let harness = try PackageHarness()
        let report = try await MovieDownloadTests.job(harness, "/e_multivariant/master.m3u8", to: "movie.ts", writing: Self.writing).run()
        let movie = harness.folder.url.appendingPathComponent("movie.ts").path
        #expect(report.tracks.map(\.kind) == [.video, .audio] && report.tracks.map(\.samples) == [100, 189])
        #expect(try Self.validates(movie))
        try MovieDownloadTests.expectMultivariantFrames(movie, harness)
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let tags = try ExternalProcess.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name:stream_tags=language", "-of", "compact", movie]).output
        #expect(tags.contains("codec_name=h264") && tags.contains("codec_name=aac|tag:language=eng"), "\(tags)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        #expect(SHA256Hasher.hash(bytes) == report.sha256 && bytes.count % 188 == 0)
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("fragmented MP4 sources (copied avc1 and mp4a entries) become MPEG-TS with the same pictures and sound as the MP4 muxed from them")
    func fragmentedSources() async throws {
        let harness = try PackageHarness(extra: ["t/fmp4.m3u8": MovieDownloadTests.fragmentedLadder])
        let transport = try await MovieDownloadTests.job(harness, "/t/fmp4.m3u8", to: "movie.ts", writing: Self.writing).run()
        let mp4 = try await MovieDownloadTests.job(harness, "/t/fmp4.m3u8").run()
        #expect(transport.tracks.map(\.samples) == mp4.tracks.map(\.samples))
        let ts = harness.folder.url.appendingPathComponent("movie.ts").path
        #expect(try Self.validates(ts))
        for stream in ["0:v", "0:a"] {
            #expect(try MovieDownloadTests.frames(ts, stream) == MovieDownloadTests.frames(MovieDownloadTests.destination(harness).path, stream), "\(stream)")
        }
    }

    @Test("discontinuities with other resolutions and audio configurations: one timeline, each picture decoded at its own size as from the MP4")
    func discontinuities() async throws {
        let harness = try PackageHarness()
        _ = try await MovieDownloadTests.job(harness, "/g_discontinuity/index.m3u8", to: "movie.ts", writing: Self.writing).run()
        _ = try await MovieDownloadTests.job(harness, "/g_discontinuity/index.m3u8").run()
        let ts = harness.folder.url.appendingPathComponent("movie.ts").path
        #expect(try Self.validates(ts))
        let mp4 = MovieDownloadTests.destination(harness).path
        #expect(try MovieDownloadTests.frames(ts, "0:v", passthrough: true) == MovieDownloadTests.frames(mp4, "0:v", passthrough: true))
        #expect(try MovieDownloadTests.frames(ts, "0:v", passthrough: true).count == 160)
    }

    @Test("a failed transfer leaves nothing at the destination; the rerun resumes (its segments timed from the files) and writes a byte-identical MPEG-TS")
    func failureThenResume() async throws {
        let reference = try PackageHarness()
        let expected = try await MovieDownloadTests.job(reference, "/e_multivariant/master.m3u8", to: "movie.ts", writing: Self.writing).run()
        let harness = try PackageHarness()
        harness.origin.inject(.status(404), path: "/e_multivariant/hi/seg_002.ts", attempts: 1...1)
        await #expect(throws: HLSError.self) { try await MovieDownloadTests.job(harness, "/e_multivariant/master.m3u8", to: "movie.ts", writing: Self.writing).run() }
        #expect(!FileManager.default.fileExists(atPath: harness.folder.url.appendingPathComponent("movie.ts").path))
        let report = try await MovieDownloadTests.job(harness, "/e_multivariant/master.m3u8", to: "movie.ts", writing: Self.writing).run()
        #expect(report.resumedResources > 0 && report.sha256 == expected.sha256)
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("a transport stream carries no timed text and is not fragmented: refused before any media is fetched")
    func refusals() async throws {
        let harness = try PackageHarness()
        for writing in [MovieDownload.Writing(container: .transportStream, embedsSubtitles: true), MovieDownload.Writing(container: .transportStream, fragmented: true)] {
            await #expect(throws: HLSError.self) {
                try await MovieDownloadTests.job(harness, "/e_multivariant/master.m3u8", subtitles: "all", to: "movie.ts", writing: writing).run()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: harness.folder.url.appendingPathComponent("movie.ts").path))
    }

    @Test("a lone MPEG-TS variant without a discontinuity is taken whole, decided on the chosen playlists before any movie plan; separate audio, subtitles, fMP4 and discontinuities are muxed")
    func wholeOrMuxed() async throws {
        let gap = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2,\n../a_ts_vod/seg_000.ts\n"
            + "#EXT-X-GAP\n#EXTINF:2,\n../a_ts_vod/seg_001.ts\n#EXTINF:2,\n../a_ts_vod/seg_002.ts\n#EXT-X-ENDLIST\n"
        let harness = try PackageHarness(extra: ["gap/index.m3u8": gap])
        let gapJob = try MovieDownloadTests.job(harness, "/gap/index.m3u8", to: "movie.ts", writing: Self.writing)
        #expect(!gapJob.isWholeTransportStream(try await gapJob.chosen()), "a gap is the movie's to refuse or keep")
        let refusal = await #expect(throws: HLSError.self) { try await gapJob.plan() }
        #expect(refusal?.message.contains("--allow-gaps") == true, "the refusal says how to keep the hole")
        let cases: [(path: String, subtitles: String, whole: Bool)] = [
            ("/a_ts_vod/index.m3u8", "default", true), ("/e_multivariant/hi/index.m3u8", "default", true),
            ("/e_multivariant/master.m3u8", "default", false), ("/e_multivariant/master.m3u8", "all", false),
            ("/g_discontinuity/index.m3u8", "default", false), ("/d_fmp4_single/index.m3u8", "default", false),
            ("/b_fmp4_video/index.m3u8", "default", false),
        ]
        for (path, subtitles, whole) in cases {
            let job = try MovieDownloadTests.job(harness, path, subtitles: subtitles, to: "movie.ts", writing: Self.writing)
            let chosen = try await job.chosen()
            #expect(job.isWholeTransportStream(chosen) == whole, "\(path) --subtitles \(subtitles)")
            #expect(job.summary(of: try job.planned(chosen)).tracks.count == (try await job.plan()).tracks.count, "the plan of the choice is the job's plan")
        }
    }
}
