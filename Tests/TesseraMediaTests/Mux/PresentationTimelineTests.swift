#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("PresentationTimeline")
struct PresentationTimelineTests {
    /// An MP4 file muxed in memory from TS `segments` (fixture paths), each with its run, and
    /// the source's bytes concatenated.
    static func mux(_ segments: [(path: String, run: Int)]) throws -> (movie: [UInt8], source: [UInt8], tracks: [MP4Track]) {
        let loaded = try segments.map { (bytes: try FixtureStore.bytes($0.path), run: $0.run) }
        let (file, tracks) = try TransportStreamMux.mux(loaded)
        return (file, loaded.flatMap(\.bytes), tracks)
    }

    /// Writes `bytes` into a fresh folder and runs `body` with the file's path.
    static func withFile<T>(_ bytes: [UInt8], name: String, _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-timeline-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }   // cleanup of a scratch folder: nothing to report
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try body(path)
    }

    @Test("timestamps wrapping past 2^33 inside a segment are unwrapped: the file starts at 0, lasts 4 s, every frame the source's")
    func ptsWrap() throws {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        let (movie, source, tracks) = try Self.mux((0..<4).map { ("g_pts_wrap/seg_00\($0).ts", 0) })
        #expect(tracks[0].samples.count == 100)
        let duration = try Self.checkDecodes(movie, asSource: source, ffmpeg: ffmpeg)
        #expect(abs(duration - 4.032) < 0.05)
    }

    @Test("a discontinuity where timestamps jump 1,000 s forward is joined: the second run follows the first, audio and video within one frame")
    func discontinuityJoined() throws {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        // The first and third runs of the fixture: one encoder's parameters, the timestamps 1,000 s apart.
        let (movie, source, tracks) = try Self.mux([("g_discontinuity/p1_000.ts", 0), ("g_discontinuity/p1_001.ts", 0),
                                                    ("g_discontinuity/p3_004.ts", 1), ("g_discontinuity/p3_005.ts", 1)])
        #expect(try Self.checkDecodes(movie, asSource: source, ffmpeg: ffmpeg) < 4.2)   // not 1,000 s
        // Where each track's second run starts on the movie clock: within one audio frame.
        let video = tracks[0], audio = tracks[1]
        let videoJump = zip(video.samples, video.samples.dropFirst()).map { $1.decodeTime - $0.decodeTime }.max()!
        #expect(videoJump < 2 * 3600)   // no hole in the video: less than two frames at 25 fps
        let audioRate = Double(audio.timescale)
        let audioJoin = zip(audio.samples, audio.samples.dropFirst()).map { $1.decodeTime - $0.decodeTime }.max()!
        #expect(Double(audioJoin) / audioRate < 2 * 1024 / audioRate + 0.001)
    }

    /// Checks that ffmpeg decodes `movie` without a message, with the video frames of the TS
    /// `source`; returns the movie's duration.
    static func checkDecodes(_ movie: [UInt8], asSource source: [UInt8], ffmpeg: String) throws -> Double {
        let (decode, hashes, duration) = try withFile(movie, name: "movie.mp4") { path in
            (try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", path, "-map", "0", "-f", "null", "-"]),
             try ProgressiveMP4Tests.frameHashes(ffmpeg, path, "0:v"), try Self.duration(path))
        }
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
        #expect(hashes == (try withFile(source, name: "source.ts") { try ProgressiveMP4Tests.frameHashes(ffmpeg, $0, "0:v") }))
        return duration
    }

    /// The file's duration as ffprobe reads it.
    static func duration(_ path: String) throws -> Double {
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let output = try ExternalProcess.run(ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).output
        return Double(output.split(separator: "\n").first.map(String.init) ?? "") ?? -1
    }

    @Test("runs whose codec parameters differ (160x90 Main and mono 48 kHz, 320x180 High and stereo 44.1 kHz, then back) become further sample descriptions: ffmpeg decodes every picture as the source's runs do, GStreamer plays all 160")
    func parametersChange() throws {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        let gst = try #require(ExternalProcess.find("gst-launch-1.0"), "Scripts/bootstrap.sh installs GStreamer")
        let runs = [["p1_000", "p1_001"], ["p2_002", "p2_003"], ["p3_004", "p3_005"]]
        let (movie, _, tracks) = try Self.mux(runs.enumerated().flatMap { run, names in names.map { ("g_discontinuity/\($0).ts", run) } })
        #expect(tracks.map(\.descriptions.count) == [2, 2])
        #expect(tracks[0].samples.map(\.description) == [UInt16](repeating: 0, count: 50) + [UInt16](repeating: 1, count: 60) + [UInt16](repeating: 0, count: 50))
        // Each picture at its own size, as each run's segments decode on their own.
        var expected: [String] = []
        for (index, names) in runs.enumerated() {
            let bytes = try names.flatMap { try FixtureStore.bytes("g_discontinuity/\($0).ts") }
            expected += try Self.withFile(bytes, name: "run\(index).ts") { try Self.pictureChecksums(ffmpeg, $0) }
        }
        let (checksums, decode, play) = try Self.withFile(movie, name: "changes.mp4") { path in
            (try Self.pictureChecksums(ffmpeg, path),
             // Frames keep their own times (-fps_mode passthrough, -enc_time_base -1): else ffmpeg's CLI
             // re-times the 30 fps run on the first run's 25 fps and its null muxer complains — as it
             // does reading the source playlist itself.
             try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", path, "-map", "0", "-fps_mode", "passthrough", "-enc_time_base", "-1",
                                              "-f", "null", "-"]),
             try ExternalProcess.run(gst, ["-v", "playbin", "uri=file://" + path, "video-sink=fakesink name=framesink silent=false sync=false",
                                           "audio-sink=fakesink sync=false"]))
        }
        #expect(checksums.count == 160 && checksums == expected)
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
        #expect(play.status == 0 && play.output.components(separatedBy: "framesink: last-message = chain").count - 1 == 160)
    }

    /// The checksum of every decoded picture of `path` at its own size (showinfo, no scaling).
    static func pictureChecksums(_ ffmpeg: String, _ path: String) throws -> [String] {
        let log = try ExternalProcess.run(ffmpeg, ["-hide_banner", "-nostdin", "-i", path, "-map", "0:v", "-fps_mode", "passthrough", "-vf", "showinfo",
                                                   "-f", "null", "-"]).errors
        return log.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("checksum:") }.map { String($0.dropFirst("checksum:".count)) }
        }
    }

    @Test("a run whose pictures are reordered more deeply than the run before it starts just late enough to keep decode order")
    func deeperReorderingAfterJoin() throws {
        var timeline = PresentationTimeline()
        let (tracks, _) = try ProgressiveMP4Tests.tracks()
        let video = timeline.addTrack(tracks[0].media)
        for index in 0..<3 {   // one frame of delay
            let dts = UInt64(index * 3600)
            try timeline.append(AccessUnit(decodeTime: dts, presentationTime: dts + 3600, isSync: index == 0, data: []), size: 10, to: video, run: 0)
        }
        for index in 0..<3 {   // three frames of delay, timestamps elsewhere
            let dts = UInt64(900_000 + index * 3600)
            try timeline.append(AccessUnit(decodeTime: dts, presentationTime: dts + 10_800, isSync: index == 0, data: []), size: 10, to: video, run: 1)
        }
        let samples = try timeline.movieTracks()[0].samples
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.decodeTime < $1.decodeTime })
        #expect(samples[3].decodeTime == samples[2].decodeTime + 1)
        #expect(samples[3].decodeTime + Int64(samples[3].compositionOffset) >= 14_400, "the second run is shown after the first ends")
    }

    @Test("a run that goes back, or a decode time that does not increase within a run, is a typed error")
    func defects() throws {
        var timeline = PresentationTimeline()
        let (tracks, _) = try ProgressiveMP4Tests.tracks()
        let track = timeline.addTrack(tracks[0].media)
        let unit = AccessUnit(decodeTime: 1000, presentationTime: 1000, isSync: true, data: [])
        try timeline.append(unit, size: 1, to: track, run: 1)
        #expect(throws: MediaError.self) { try timeline.append(unit, size: 1, to: track, run: 1) }
        #expect(throws: MediaError.self) { try timeline.append(AccessUnit(decodeTime: 5000, presentationTime: 5000, isSync: true, data: []), size: 1, to: track, run: 0) }
        var silent = PresentationTimeline()
        _ = silent.addTrack(tracks[0].media)
        #expect(throws: MediaError.self) { _ = try silent.movieTracks() }
    }
}
