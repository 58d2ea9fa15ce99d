import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("TSDemuxer")
struct TSDemuxerTests {
    /// a_ts_vod's four segments joined: 4 s of 160x90@25 H.264 Main with B-frames and AAC LC mono
    /// at 48 kHz, as ffmpeg 5.1 wrote them (ffprobe: 100 video packets, 189 AAC frames).
    static func vod() throws -> [UInt8] {
        try (0..<4).flatMap { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
    }

    static func demux(_ bytes: [UInt8], chunks: [Int]? = nil) throws -> [PESPacket] {
        var demuxer = TSDemuxer()
        var packets: [PESPacket] = []
        var index = 0
        var sizes = (chunks ?? [bytes.count]).makeIterator()
        while index < bytes.count {
            let size = max(1, sizes.next() ?? bytes.count)
            packets += try demuxer.consume(Array(bytes[index..<min(bytes.count, index + size)]))
            index += size
        }
        return packets + (try demuxer.finish())
    }

    @Test("the program map's streams are read and each PES packet comes out whole with its PTS and DTS")
    func demuxesFixture() throws {
        let packets = try Self.demux(try Self.vod())
        let video = packets.filter { $0.streamType == .h264 }
        let audio = packets.filter { $0.streamType == .aacADTS }
        #expect(video.count == 100)
        #expect(video.first?.pts == 133_200)
        #expect(video.first?.dts == 126_000)
        #expect(video.first?.isRandomAccess == true)
        #expect(!audio.isEmpty && audio.allSatisfy { $0.pts != nil && $0.dts == nil })
        #expect(audio.first?.pts == 131_280)
        #expect(packets.count == video.count + audio.count)
    }

    @Test("the packets do not depend on how the bytes are chunked (byte by byte, seeded random splits)")
    func chunkingInvariance() throws {
        let bytes = Array(try Self.vod()[0..<(188 * 120)])
        let whole = Self.summary(try Self.demux(bytes))
        var generator = SeededGenerator(seed: 37)
        for chunks in [[Int](repeating: 1, count: bytes.count), (0..<400).map { _ in Int.random(in: 1...700, using: &generator) }] {
            let chunked = Self.summary(try Self.demux(bytes, chunks: chunks))
            #expect(chunked == whole)
        }
    }

    static func summary(_ packets: [PESPacket]) -> [String] {
        packets.map { "\($0.pid) \($0.pts ?? 0) \($0.dts ?? 0) \($0.byteOffset) \($0.data)" }
    }

    @Test("a stream that ends inside a transport packet is refused with a typed error")
    func truncatedPacket() throws {
        let bytes = Array(try Self.vod().dropLast(100))
        #expect(throws: MediaError.self) { _ = try Self.demux(bytes) }
    }

    @Test("lost sync names the byte offset; nothing after it is read")
    func lostSync() throws {
        var bytes = try Self.vod()
        bytes[188 * 50] = 0x46
        let error = #expect(throws: MediaError.self) { _ = try Self.demux(bytes) }
        #expect(error?.code == .malformedTransportStream)
        #expect(error?.message.contains("byte \(188 * 50)") == true)
    }

    @Test("a PES packet over the bound is refused instead of growing without limit")
    func boundedPES() throws {
        var demuxer = TSDemuxer(maximumPESBytes: 1000)
        let bytes = try Self.vod()
        let error = #expect(throws: MediaError.self) { _ = try demuxer.consume(bytes) }
        #expect(error?.message.contains("grows past 1000 bytes") == true)
    }
}
