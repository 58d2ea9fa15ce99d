import Testing
import TesseraMedia

@Suite("ADTSReader")
struct ADTSReaderTests {
    @Test("every AAC frame of the fixture comes out with its PTS: the PES PTS, then 1,024 samples per frame")
    func framesAndTimes() throws {
        let packets = try TSDemuxerTests.demux(try TSDemuxerTests.vod()).filter { $0.streamType == .aacADTS }
        var reader = ADTSReader()
        var frames: [AccessUnit] = []
        for packet in packets {
            let units = try reader.consume(packet)
            #expect(units.first?.presentationTime == packet.pts)
            frames += units
        }
        try reader.finish()
        #expect(frames.count == 189)   // ffprobe's count
        #expect(frames.first?.presentationTime == 131_280)
        #expect(frames.last?.presentationTime == 492_240)
        let steps = Set(zip(frames, frames.dropFirst()).map { pair in pair.1.decodeTime - pair.0.decodeTime })
        #expect(steps == [1920])   // 1024 samples at 48 kHz
        #expect(frames.allSatisfy { $0.isSync })
        #expect(reader.configuration?.sampleRate == 48000)
        #expect(reader.configuration?.channelConfiguration == 1)
        #expect(reader.configuration?.audioSpecificConfig == [0x11, 0x88])   // ffmpeg's esds for AAC LC, 48 kHz, mono
    }

    @Test("a frame split across PES packets is joined; the second packet's PTS times the first frame that starts in it")
    func frameAcrossPackets() throws {
        let frame = Self.frame(payload: 20)
        let first = PESPacket.make(pts: 9000, data: frame + frame.prefix(10))
        let second = PESPacket.make(pts: 9000 + 2 * 1920, data: Array(frame.dropFirst(10)) + frame)
        var reader = ADTSReader()
        #expect(try reader.consume(first).map(\.presentationTime) == [9000])
        let units = try reader.consume(second)
        let times: [UInt64] = [9000 + 1920, 9000 + 2 * 1920]
        #expect(units.map(\.presentationTime) == times)
        let raw = Array(frame.dropFirst(7))
        #expect(units.map(\.data) == [raw, raw])
        try reader.finish()
    }

    @Test("a configuration change is reported; bytes that are not ADTS, and a stream ending inside a frame, are typed errors")
    func defects() throws {
        var reader = ADTSReader()
        _ = try reader.consume(PESPacket.make(pts: 0, data: Self.frame(payload: 4)))
        _ = try reader.consume(PESPacket.make(pts: 1920, data: Self.frame(payload: 4, frequencyIndex: 4)))
        #expect(reader.configurationChanged)
        #expect(reader.configuration?.sampleRate == 44100)
        #expect(throws: MediaError.self) { _ = try reader.consume(PESPacket.make(pts: 3840, data: [UInt8](repeating: 0x55, count: 40))) }
        var cut = ADTSReader()
        _ = try cut.consume(PESPacket.make(pts: 0, data: Array(Self.frame(payload: 30).prefix(12))))
        #expect(throws: MediaError.self) { try cut.finish() }
    }

    /// An ADTS frame without CRC: AAC LC, mono, `payload` bytes of zeros.
    static func frame(payload: Int, frequencyIndex: UInt8 = 3) -> [UInt8] {
        let length = 7 + payload
        return [0xFF, 0xF1, 0x40 | frequencyIndex << 2, 0x40 | UInt8(length >> 11 & 3), UInt8(length >> 3 & 0xFF),
                UInt8(length & 7) << 5 | 0x1F, 0xFC] + [UInt8](repeating: 0, count: payload)
    }
}

extension PESPacket {
    /// An audio PES packet as the demuxer gives it.
    static func make(pts: UInt64?, dts: UInt64? = nil, data: [UInt8], type: TSStreamType = .aacADTS) -> PESPacket {
        PESPacket(pid: 257, streamType: type, pts: pts, dts: dts, isRandomAccess: false, data: data, byteOffset: 0)
    }
}
