#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("ProgressiveMP4")
struct ProgressiveMP4Tests {
    /// a_ts_vod's H.264 and AAC as two tracks on one timeline starting at the earliest PTS, and
    /// each track's sample bytes in decode order.
    static func tracks() throws -> (tracks: [MP4Track], data: [[[UInt8]]]) {
        let packets = try TSDemuxerTests.demux(try TSDemuxerTests.vod())
        var video = AVCReader(), audio = ADTSReader()
        var pictures: [AccessUnit] = [], frames: [AccessUnit] = []
        for packet in packets {
            if packet.streamType == .h264 { pictures.append(try video.consume(packet)) } else { frames += try audio.consume(packet) }
        }
        let start = Int64(min(pictures.map(\.presentationTime).min()!, frames[0].presentationTime))
        var videoTrack = MP4Track(media: .avc(try #require(video.configuration)), timescale: 90000)
        for unit in pictures {
            try videoTrack.append(.init(size: UInt32(unit.data.count), decodeTime: Int64(unit.decodeTime) - start,
                                        compositionOffset: Int32(Int64(unit.presentationTime) - Int64(unit.decodeTime)), isSync: unit.isSync))
        }
        let header = try #require(audio.configuration)
        var audioTrack = MP4Track(media: .aac(header), timescale: UInt32(header.sampleRate))
        audioTrack.language = "fra"
        audioTrack.name = "Français"
        let first = (Int64(frames[0].presentationTime) - start) * Int64(header.sampleRate) / 90000
        for (index, unit) in frames.enumerated() {
            try audioTrack.append(.init(size: UInt32(unit.data.count), decodeTime: first + Int64(index * 1024), compositionOffset: 0, isSync: true))
        }
        return ([videoTrack, audioTrack], [pictures.map(\.data), frames.map(\.data)])
    }

    /// The file of `layout` with the samples of `data`.
    static func file(_ layout: ProgressiveMP4.Layout, _ data: [[[UInt8]]]) -> [UInt8] {
        var bytes = layout.header
        for chunk in layout.chunks {
            for index in chunk.samples { bytes += data[chunk.track][index] }
        }
        return bytes
    }

    @Test("moov comes first and every chunk offset points at its samples' bytes")
    func layoutIsConsistent() throws {
        let (tracks, data) = try Self.tracks()
        let layout = try ProgressiveMP4(tracks: tracks).layout()
        let bytes = Self.file(layout, data)
        #expect(UInt64(bytes.count) == layout.fileSize)
        #expect(String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp")
        let moovAt = Int(bytes[3]) + Int(bytes[2]) << 8
        #expect(String(decoding: bytes[(moovAt + 4)..<(moovAt + 8)], as: UTF8.self) == "moov")
        // Chunks alternate between the tracks by decode time: both tracks appear in the first seconds.
        #expect(Set(layout.chunks.prefix(3).map(\.track)) == [0, 1])
        #expect(layout.chunks.filter { $0.track == 0 }.flatMap { Array($0.samples) } == Array(0..<100))
    }

    @Test("ffmpeg and GStreamer decode the file silently: the same video frames and audio samples as the source, French audio named, A/V offset kept")
    func ffmpegDecodesIt() throws {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"), "Scripts/bootstrap.sh installs ffmpeg")
        let ffprobe = try #require(ExternalProcess.find("ffprobe"))
        let (tracks, data) = try Self.tracks()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-mp4-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }   // cleanup of a scratch folder: nothing to report
        let movie = folder.appendingPathComponent("movie.mp4").path
        let source = folder.appendingPathComponent("source.ts").path
        try Data(Self.file(try ProgressiveMP4(tracks: tracks).layout(), data)).write(to: URL(fileURLWithPath: movie))
        try Data(try TSDemuxerTests.vod()).write(to: URL(fileURLWithPath: source))

        let decode = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", movie, "-map", "0", "-f", "null", "-"])
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
        for stream in ["0:v", "0:a"] {
            #expect(try Self.frameHashes(ffmpeg, source, stream) == Self.frameHashes(ffmpeg, movie, stream), "\(stream)")
        }
        // GStreamer's playbin (qtdemux) plays it to the end, every picture decoded.
        let gst = try #require(ExternalProcess.find("gst-launch-1.0"), "Scripts/bootstrap.sh installs GStreamer")
        let play = try ExternalProcess.run(gst, ["-v", "playbin", "uri=file://" + movie, "video-sink=fakesink name=framesink silent=false sync=false",
                                                 "audio-sink=fakesink sync=false"])
        #expect(play.status == 0)
        #expect(play.output.components(separatedBy: "framesink: last-message = chain").count - 1 == 100)
        let probe = try ExternalProcess.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,start_time,width,height:stream_tags=language,handler_name",
                                                      "-of", "compact", movie]).output
        #expect(probe.contains("codec_name=h264|width=160|height=90|start_time=0.021333"))
        #expect(probe.contains("codec_name=aac|start_time=0.000000|tag:language=fra|tag:handler_name=Français"))
    }

    /// The hashes of `stream`'s decoded frames (framemd5, timestamps left out).
    static func frameHashes(_ ffmpeg: String, _ input: String, _ stream: String) throws -> [String] {
        let output = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", input, "-map", stream, "-f", "framemd5", "-"]).output
        return output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
    }

    @Test("the mdhd language packs ISO 639-2/T letters; anything else is und")
    func language() {
        #expect(ProgressiveMP4.packedLanguage("fra") == 0x1A41)
        #expect(ProgressiveMP4.packedLanguage("und") == ProgressiveMP4.packedLanguage("FR"))
    }

    @Test("a track without samples, or a decode time that goes back, is a typed error")
    func defects() throws {
        let (tracks, _) = try Self.tracks()
        var empty = MP4Track(media: tracks[0].media, timescale: 90000)
        #expect(throws: MediaError.self) { _ = try ProgressiveMP4(tracks: [empty]).layout() }
        try empty.append(.init(size: 1, decodeTime: 10, compositionOffset: 0, isSync: true))
        #expect(throws: MediaError.self) { try empty.append(.init(size: 1, decodeTime: 10, compositionOffset: 0, isSync: true)) }
    }
}

@Suite("MP4Validator on progressive MP4")
struct ProgressiveValidationTests {
    static func movie() throws -> [UInt8] {
        let (tracks, data) = try ProgressiveMP4Tests.tracks()
        return ProgressiveMP4Tests.file(try ProgressiveMP4(tracks: tracks).layout(), data)
    }

    static func validate(_ bytes: [UInt8]) -> [MediaFinding] {
        var validator = MP4Validator()
        return validator.validate(MP4MemorySource(bytes))
    }

    @Test("our progressive MP4 validates with no finding, as an MP4 whose moov lists its samples")
    func valid() throws {
        let result = MediaValidation.validate(MP4MemorySource(try Self.movie()))
        #expect(result.findings.isEmpty && result.isProgressiveMP4, "\(result.findings)")
    }

    @Test("a sample table whose counts disagree, or a chunk past the mdat, is an error")
    func defects() throws {
        var bytes = try Self.movie()
        // The first stsz's sample count one higher than stts times.
        let stsz = try #require(Self.find("stsz", in: bytes))
        bytes[stsz + 19] &+= 1
        #expect(Self.validate(bytes).contains { $0.id == "mp4-sample-table" })
        var cut = try Self.movie()
        cut.removeLast(5000)   // the mdat claims more than the file holds, and chunks lie past it
        #expect(Self.validate(cut).contains { $0.severity == .error })
        var moved = try Self.movie()
        let stco = try #require(Self.find("stco", in: moved))
        moved[stco + 16] = 0xFF   // the first chunk's offset far past the file
        #expect(Self.validate(moved).contains { $0.id == "mp4-chunk-outside-mdat" })
    }

    /// Where the first `type` box's header starts (its size field).
    static func find(_ type: String, in bytes: [UInt8]) -> Int? {
        let code = Array(type.utf8)
        return (4..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(code) }.map { $0 - 4 }
    }
}

extension ProgressiveValidationTests {
    @Test("a sample table claiming 4,294,967,295 samples of one size is checked in closed form: its one chunk lies past the mdat")
    func hugeUniformTable() {
        let (box, u32) = (BoxBytes.box, BoxBytes.u32)
        let all: UInt32 = .max
        let stbl = box("stbl", box("stsd", u32(0, 1) + box("mp4a", [UInt8](repeating: 0, count: 28)))
            + box("stts", u32(0, 1, all, 1024)) + box("stsc", u32(0, 1, 1, all, 1)) + box("stsz", u32(0, 1, all)) + box("stco", u32(0, 1, 100)))
        let trak = box("trak", box("tkhd", u32(0, 0, 0, 1) + [UInt8](repeating: 0, count: 68))
            + box("mdia", box("mdhd", u32(0, 0, 0, 48000, 0, 0)) + box("minf", stbl)))
        let file = box("ftyp", Array("isom".utf8) + u32(0)) + box("moov", trak) + box("mdat", [UInt8](repeating: 0, count: 16))
        #expect(Self.validate(file).contains { $0.id == "mp4-chunk-outside-mdat" })
    }
}
