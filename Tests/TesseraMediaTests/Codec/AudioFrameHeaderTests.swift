import Testing
import TesseraMedia

@Suite("AC-3, E-AC-3 and MPEG audio frame headers")
struct AudioFrameHeaderTests {
    /// A frame of `length` bytes starting with `header`, the rest zeros.
    static func frame(_ header: [UInt8], _ length: Int) -> [UInt8] { header + [UInt8](repeating: 0, count: length - header.count) }

    static func packet(_ data: [UInt8], pts: UInt64 = 900) -> PESPacket {
        PESPacket(pid: 0x101, streamType: .ac3, pts: pts, dts: nil, isRandomAccess: false, data: data, byteOffset: 0)
    }

    @Test("AC-3: the length from the rate and size codes (44.1 kHz adds a word for odd codes), 3/2 with LFE, the dac3 bits")
    func ac3() throws {
        // 44.1 kHz, frmsizecod 29 (384 kbit/s, odd): 836 words; bsid 8, bsmod 0, acmod 7 with cmixlev and surmixlev, then lfeon = 1.
        let header = try #require(AC3Header([0x0B, 0x77, 0, 0, 0x5D, 0x40, 0xE1, 0x00], at: 0))
        #expect(header.frameLength == 1672 && header.sampleCount == 1536 && header.sampleRate == 44100)
        #expect(header.configuration.channelCount == 6 && header.configuration.hasLowFrequencyEffects)
        #expect(header.configuration.specificBox == [0x50, 0x3D, 0xC0])   // fscod 1, bsid 8, bsmod 0, acmod 7, lfe 1, bit_rate_code 14
        #expect(AC3Header([0x0B, 0x77, 0, 0, 0xC0, 0x40, 0, 0], at: 0) == nil, "fscod 3 is reserved")
        #expect(AC3Header([0x0B, 0x77, 0, 0, 0x10, 0x80, 0, 0], at: 0) == nil, "bsid 16 is E-AC-3")
    }

    @Test("E-AC-3: the length from frmsiz, six blocks of 256 samples, the dec3 data rate; several substreams or shorter frames are typed refusals")
    func eac3() throws {
        let header = try #require(EAC3Header([0x0B, 0x77, 0x01, 0x7F, 0x34, 0x80], at: 0))
        #expect(header.frameLength == 768 && header.sampleCount == 1536 && header.unsupported == nil)
        #expect(header.configuration.dataRate == 192 && header.configuration.channelCount == 2)
        var reader = AudioFrameReader<EAC3Header>()
        let units = try reader.consume(Self.packet(Self.frame([0x0B, 0x77, 0x01, 0x7F, 0x34, 0x80], 768) + Self.frame([0x0B, 0x77, 0x01, 0x7F, 0x34, 0x80], 768)))
        #expect(units.map(\.decodeTime) == [900, 900 + 2880] && units.allSatisfy { $0.data.count == 768 })
        for bytes: [UInt8] in [[0x0B, 0x77, 0x41, 0x7F, 0x34, 0x80], [0x0B, 0x77, 0x01, 0x7F, 0x14, 0x80]] {
            var refusing = AudioFrameReader<EAC3Header>()
            let error = #expect(throws: MediaError.self) { _ = try refusing.consume(Self.packet(Self.frame(bytes, 768))) }
            #expect(error?.code == .unsupportedStream, "\(String(describing: error))")
        }
    }

    @Test("MPEG audio: MPEG-2 layer III frames of 576 samples with padding, mono, object type 0x69; free format is not a header")
    func mpegAudio() throws {
        let header = try #require(MPEGAudioHeader([0xFF, 0xF3, 0x86, 0xC0], at: 0))
        #expect(header.frameLength == 193 && header.sampleCount == 576 && header.sampleRate == 24000)
        #expect(header.configuration.channelCount == 1 && header.configuration.objectType == 0x69)
        let layer2 = try #require(MPEGAudioHeader([0xFF, 0xFD, 0x94, 0x00], at: 0))   // MPEG-1 layer II, 160 kbit/s, 48 kHz
        #expect(layer2.sampleCount == 1152 && layer2.configuration.objectType == 0x6B && layer2.frameLength == 480)
        #expect(MPEGAudioHeader([0xFF, 0xFB, 0x04, 0x00], at: 0) == nil)
    }

    @Test("frames straddling PES packets are joined and timed from the PTS of the packet they start in; garbage is a typed error")
    func straddling() throws {
        var reader = AudioFrameReader<MPEGAudioHeader>()
        let frame = Self.frame([0xFF, 0xF3, 0x86, 0xC0], 193)
        #expect(try reader.consume(Self.packet(frame + Array(frame[..<100]))).count == 1)
        let second = try reader.consume(Self.packet(Array(frame[100...]) + frame, pts: 5000))
        // The straddling frame continues the first packet's clock (576 samples at 24 kHz = 2,160 ticks); the next starts at the new PTS.
        #expect(second.map(\.decodeTime) == [900 + 2160, 5000])
        try reader.finish()
        var garbage = AudioFrameReader<AC3Header>()
        #expect(throws: MediaError.self) { _ = try garbage.consume(Self.packet([UInt8](repeating: 0x42, count: 64))) }
    }
}
