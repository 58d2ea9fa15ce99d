import Testing
import TesseraMedia

@Suite("AVCReader")
struct AVCReaderTests {
    @Test("each PES packet of the fixture is one access unit: PTS and DTS kept, IDR pictures sync, NAL units length-prefixed without the delimiter")
    func accessUnits() throws {
        let packets = try TSDemuxerTests.demux(try TSDemuxerTests.vod()).filter { $0.streamType == .h264 }
        var reader = AVCReader()
        let units = try packets.map { packet throws(MediaError) in try reader.consume(packet) }
        #expect(units.count == 100)
        #expect(units.count { $0.isSync } == 4)   // ffprobe: four keyframes, one a segment
        #expect(units.first?.presentationTime == 133_200 && units.first?.decodeTime == 126_000)
        for unit in units {
            var index = 0
            while index < unit.data.count {
                let length = unit.data[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
                #expect(unit.data[index + 4] & 0x1F != 9)
                index += 4 + length
            }
            #expect(index == unit.data.count)
        }
    }

    @Test("the avcC record and codec string are ffmpeg's for the same stream; the picture size is read from the SPS")
    func configuration() throws {
        let packets = try TSDemuxerTests.demux(try TSDemuxerTests.vod()).filter { $0.streamType == .h264 }
        var reader = AVCReader()
        _ = try reader.consume(packets[0])
        let configuration = try #require(reader.configuration)
        // ffmpeg 5.1 `-c copy` of this stream into MP4 writes this avcC payload.
        let ffmpeg = "014d400bffe10017674d400beca146fc9808800000030080000019078a14cb01000468efbc80"
        #expect(configuration.record.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() == ffmpeg)
        #expect(configuration.sequence.width == 160 && configuration.sequence.height == 90)
        #expect(configuration.sequence.codecString == "avc1.4D400B")
        #expect(!reader.configurationChanged)
    }

    @Test("a packet without a picture, without a PTS, or with a picture before any parameter set is a typed error")
    func defects() throws {
        var reader = AVCReader()
        let slice: [UInt8] = [0, 0, 0, 1, 0x65, 0x88, 0x84]
        #expect(throws: MediaError.self) { _ = try reader.consume(PESPacket.make(pts: 0, data: slice, type: .h264)) }
        #expect(throws: MediaError.self) { _ = try reader.consume(PESPacket.make(pts: nil, data: slice, type: .h264)) }
        #expect(throws: MediaError.self) { _ = try reader.consume(PESPacket.make(pts: 0, data: [0, 0, 1, 0x09, 0xF0], type: .h264)) }
    }
}
