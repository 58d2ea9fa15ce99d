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
    /// An MP4 file muxed from TS `segments` (fixture paths), each with its run, and the source's
    /// bytes concatenated.
    static func mux(_ segments: [(path: String, run: Int)]) throws -> (movie: [UInt8], source: [UInt8], tracks: [MP4Track]) {
        var timeline = PresentationTimeline()
        var store: [[[UInt8]]] = []
        var index: [UInt16: Int] = [:]
        var video = AVCReader(), audio = ADTSReader()
        var source: [UInt8] = []
        for (path, run) in segments {
            let bytes = try FixtureStore.bytes(path)
            source += bytes
            var demuxer = TSDemuxer()
            for packet in try demuxer.consume(bytes) + demuxer.finish() {
                let units: [AccessUnit] = packet.streamType == .h264 ? [try video.consume(packet)] : try audio.consume(packet)
                let media: MP4Track.Media = packet.streamType == .h264 ? .avc(video.configuration!) : .aac(audio.configuration!)
                let track = index[packet.pid] ?? {
                    store.append([])
                    return timeline.addTrack(media)
                }()
                index[packet.pid] = track
                for unit in units {
                    let duration: Int64? = packet.streamType == .h264 ? nil : Int64(1024 * 90000 / audio.configuration!.sampleRate)
                    try timeline.append(unit, size: unit.data.count, duration: duration, to: track, run: run)
                    store[track].append(unit.data)
                }
            }
        }
        let tracks = try timeline.movieTracks()
        return (ProgressiveMP4Tests.file(try ProgressiveMP4(tracks: tracks).layout(), store), source, tracks)
    }

    /// Writes `bytes` into a fresh folder and runs `body` with the file's path.
    static func withFile<T>(_ bytes: [UInt8], name: String, _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-timeline-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
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
        let (movie, source, tracks) = try Self.mux([("g_discontinuity/p2_002.ts", 0), ("g_discontinuity/p2_003.ts", 0),
                                                    ("g_discontinuity/p3_004.ts", 1), ("g_discontinuity/p3_005.ts", 1)])
        #expect(try Self.checkDecodes(movie, asSource: source, ffmpeg: ffmpeg) < 4.2)   // not 1,000 s
        // Where each track's second run starts on the movie clock: within one audio frame.
        let video = tracks[0], audio = tracks[1]
        let videoJump = zip(video.samples, video.samples.dropFirst()).map { $1.decodeTime - $0.decodeTime }.max()!
        #expect(videoJump < 2 * 3000)   // no hole in the video: at most a frame and a bit at 30 fps
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
