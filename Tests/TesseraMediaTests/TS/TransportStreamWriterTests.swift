import Testing
@testable import TesseraMedia
import TesseraTestSupport

@Suite("Transport stream writer: MP4 samples as one MPEG-TS program")
struct TransportStreamWriterTests {
    /// The units of the VOD fixture (H.264 + AAC), segment by segment.
    static func sourceUnits() throws -> [ElementaryStreamReader.Unit] {
        var reader = ElementaryStreamReader()
        return try (0..<4).flatMap { try reader.read(segment: try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts")) }
    }

    /// `units` written in decode order across their two tracks (video 0, audio 1), each moved by `shift`.
    static func write(_ units: [ElementaryStreamReader.Unit], shift: Int64 = 0) throws -> [UInt8] {
        let video = try #require(units.first { $0.kind == .video }).media
        let audio = try #require(units.first { $0.kind == .audio }).media
        var writer = try TransportStreamWriter(tracks: [.init(descriptions: [video], language: "und"), .init(descriptions: [audio], language: "eng")])
        let ordered = units.enumerated().sorted { ($0.element.unit.decodeTime, $0.offset) < ($1.element.unit.decodeTime, $1.offset) }.map(\.element)
        var bytes: [UInt8] = []
        for unit in ordered {
            try writer.write(unit.unit.data, track: unit.kind == .video ? 0 : 1, description: 0, decodeTime: Int64(unit.unit.decodeTime) + shift,
                             presentationTime: Int64(unit.unit.presentationTime) + shift, isSync: unit.unit.isSync)
            bytes += writer.take()
        }
        writer.finish()
        return bytes + writer.take()
    }

    @Test("a variant's access units written and read back by our demuxer and readers: every sample's bytes and timestamps as they were; the stream validates")
    func roundTrip() throws {
        let units = try Self.sourceUnits()
        let bytes = try Self.write(units, shift: 1_000)
        #expect(bytes.count % 188 == 0)
        var validator = TSValidator()
        validator.consume(bytes)
        #expect(validator.finish().filter { $0.severity == .error }.isEmpty)
        var reader = ElementaryStreamReader()
        let back = try reader.read(segment: bytes)
        for kind in [ElementaryStreamReader.Kind.video, .audio] {
            let before = units.filter { $0.kind == kind }, after = back.filter { $0.kind == kind }
            #expect(after.count == before.count, "\(kind)")
            #expect(after.map(\.unit.data) == before.map(\.unit.data), "\(kind): the samples' bytes")
            #expect(after.map(\.unit.presentationTime) == before.map { $0.unit.presentationTime + 1_000 }, "\(kind): the presentation times")
            #expect(after.map(\.media) == before.map(\.media), "\(kind): the codec configuration read from the stream")
        }
        #expect(back.filter { $0.kind == .video }.map(\.unit.decodeTime) == units.filter { $0.kind == .video }.map { $0.unit.decodeTime + 1_000 })
        #expect(back.filter { $0.kind == .video && $0.unit.isSync }.count == units.filter { $0.kind == .video && $0.unit.isSync }.count)
    }

    @Test("an audio-only program carries its PCR on the audio PID at most 100 ms apart: the validator finds nothing")
    func audioOnly() throws {
        let units = try Self.sourceUnits().filter { $0.kind == .audio }
        var writer = try TransportStreamWriter(tracks: [.init(descriptions: [units[0].media], language: "und")])
        var bytes: [UInt8] = []
        for unit in units {
            try writer.write(unit.unit.data, track: 0, description: 0, decodeTime: Int64(unit.unit.decodeTime), presentationTime: Int64(unit.unit.presentationTime),
                             isSync: true)
            bytes += writer.take()
        }
        writer.finish()
        bytes += writer.take()
        var validator = TSValidator()
        validator.consume(bytes)
        #expect(validator.finish().isEmpty)
        var reader = ElementaryStreamReader()
        #expect(try reader.read(segment: bytes).map(\.unit.data) == units.map(\.unit.data))
    }

    @Test("the program map names each track's stream type and its language; timestamps are written modulo 2^33")
    func programMap() throws {
        let units = try Self.sourceUnits()
        // The clock wraps a second after the first picture is shown.
        let first = Int64(units.map(\.unit.presentationTime).min() ?? 0)
        let bytes = try Self.write(units, shift: Int64(MPEGTimestamp.mask) + 1 - first - 90_000)
        var demuxer = TSDemuxer()
        _ = try demuxer.consume(bytes) + demuxer.finish()
        #expect(demuxer.streams.map(\.type) == [.h264, .aacADTS])
        #expect(demuxer.streams.map(\.pid) == [0x100, 0x101])
        var reader = ElementaryStreamReader()
        let back = try reader.read(segment: bytes)
        #expect(back.contains { $0.unit.presentationTime < 90_000 } && back.contains { $0.unit.presentationTime > MPEGTimestamp.mask - 90_000 }, "the clock wraps")
        let languageDescriptor: [UInt8] = [0x0A, 4] + Array("eng".utf8) + [0]
        #expect(bytes.indices.contains { bytes[$0...].starts(with: languageDescriptor) })
    }

    @Test("Annex B: the delimiter first (the sample's own left out), the parameter sets before a sync picture without its own, a length past the sample refused")
    func annexB() throws {
        let format = TSElementaryFormat.Payload.annexB(lengthSize: 4, delimiter: [0x09, 0xF0], parameterSets: [[0x67, 1], [0x68, 2]], parameterSetTypes: [7, 8], hevc: false)
        let slice: [UInt8] = [0, 0, 0, 2, 0x65, 0xAA]
        let delimiter: [UInt8] = [0, 0, 0, 2, 0x09, 0xF0]
        let sync = try TransportStreamWriter.annexB(delimiter + slice, format: format, isSync: true)
        #expect(sync == [0, 0, 0, 1, 0x09, 0xF0, 0, 0, 0, 1, 0x67, 1, 0, 0, 0, 1, 0x68, 2, 0, 0, 0, 1, 0x65, 0xAA])
        let carried = try TransportStreamWriter.annexB([0, 0, 0, 2, 0x67, 3] + slice, format: format, isSync: true)
        #expect(carried == [0, 0, 0, 1, 0x09, 0xF0, 0, 0, 0, 1, 0x67, 3, 0, 0, 0, 1, 0x65, 0xAA], "its own parameter sets, not the description's")
        #expect(try TransportStreamWriter.annexB(slice, format: format, isSync: false) == [0, 0, 0, 1, 0x09, 0xF0, 0, 0, 0, 1, 0x65, 0xAA])
        #expect(throws: MediaError.self) { try TransportStreamWriter.annexB([0, 0, 0, 9, 0x65], format: format, isSync: false) }
        #expect(throws: MediaError.self) { try TransportStreamWriter.annexB([0, 0], format: format, isSync: false) }
    }

    @Test("a fragmented MP4 source's copied entries: avcC's parameter sets and length size; mp4a's AudioSpecificConfig as an ADTS header")
    func copiedEntries() throws {
        let video = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_video/init.mp4")).tracks[0]
        let audio = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_audio/init.mp4")).tracks[0]
        let picture = try TSElementaryFormat(.copied(CopiedSampleEntry(video)))
        #expect(picture.streamType == .h264 && picture.isVideo)
        guard case .annexB(let lengthSize, _, let sets, let types, false) = picture.payload else { Issue.record("not Annex B: \(picture.payload)"); return }
        #expect(lengthSize == 4 && sets.count == 2 && types == [7, 8])
        let sound = try TSElementaryFormat(.copied(CopiedSampleEntry(audio)))
        #expect(sound.streamType == .aacADTS && sound.payload == .adts(profile: 1, frequencyIndex: 3, channels: 1), "AAC LC, 48 kHz, mono")
        let header = TransportStreamWriter.adtsHeader(profile: 1, frequencyIndex: 3, channels: 1, frameLength: 300)
        let parsed = try #require(ADTSHeader(header + Array(repeating: 0, count: 293), at: 0))
        #expect(parsed.profile == 1 && parsed.samplingFrequencyIndex == 3 && parsed.channelConfiguration == 1 && parsed.frameLength == 300)
    }

    @Test("what MPEG-TS does not carry here is refused: timed text, AAC with a program config element, more tracks than one program map holds")
    func refusals() throws {
        #expect(throws: MediaError.self) { try TransportStreamWriter(tracks: [.init(descriptions: [.timedText], language: "und")]) }
        let units = try Self.sourceUnits()
        let audio = try #require(units.first { $0.kind == .audio }).media
        #expect(throws: MediaError.self) {
            try TransportStreamWriter(tracks: Array(repeating: .init(descriptions: [audio], language: "und"), count: TransportStreamWriter.maximumTracks + 1))
        }
        #expect(throws: MediaError.self) { try TransportStreamWriter(tracks: []) }
    }
}
