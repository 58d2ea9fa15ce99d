import Testing
import TesseraMedia

@Suite("Annex B and SPS")
struct BitstreamTests {
    @Test("NAL units are found after 3- and 4-byte start codes, trailing zeros not theirs")
    func annexB() {
        let bytes: [UInt8] = [0xAA, 0, 0, 0, 1, 0x09, 0xF0, 0, 0, 1, 0x67, 1, 2, 0, 0, 0, 0, 1, 0x68, 3, 0, 0]
        #expect(AnnexB.units(in: bytes).map { Array(bytes[$0]) } == [[0x09, 0xF0], [0x67, 1, 2], [0x68, 3]])
        #expect(AnnexB.units(in: [0, 0, 1]).isEmpty)
        #expect(AnnexB.units(in: []).isEmpty)
        // 01 bytes inside a unit (after one zero, or none) start nothing; back-to-back start codes make no empty unit.
        let ones: [UInt8] = [1, 0, 1, 0, 0, 1, 0x65, 1, 0, 1, 0x01, 0, 0, 1, 0, 0, 1, 0x41, 0, 0, 0, 1]
        #expect(AnnexB.units(in: ones).map { Array(ones[$0]) } == [[0x65, 1, 0, 1, 1], [0x41]])
        // Any other layout of one start code in 64 bytes: the unit after it, found at every offset.
        for offset in 0..<60 {
            var bytes = [UInt8](repeating: 0x55, count: 64)
            bytes[offset...offset + 2] = [0, 0, 1]
            #expect(AnnexB.units(in: bytes).map(\.lowerBound) == (offset + 3 < 64 ? [offset + 3] : []))
        }
    }

    @Test("an SPS with frame cropping and emulation prevention bytes gives its cropped size (1920x1080 High)")
    func croppedHigh() throws {
        // x264's SPS for 1920x1080 High 4.0: 68 macroblock rows cropped by 8 lines.
        let sps: [UInt8] = [0x67, 0x64, 0x00, 0x28, 0xAC, 0xD9, 0x40, 0x78, 0x02, 0x27, 0xE5, 0xC0, 0x44, 0x00, 0x00, 0x03,
                            0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xC8, 0x3C, 0x60, 0xC6, 0x58]
        let set = try H264SequenceParameterSet(sps)
        #expect(set.width == 1920 && set.height == 1080)
        #expect(set.profile == 100 && set.chromaFormat == 1 && set.bitDepthLumaMinus8 == 0)
        #expect(set.codecString == "avc1.640028")
        let record = try AVCDecoderConfiguration(sequenceParameterSets: [sps], pictureParameterSets: [[0x68, 0xEB, 0xE3, 0xCB, 0x22, 0xC0]]).record
        #expect(Array(record.suffix(4)) == [0xFD, 0xF8, 0xF8, 0])   // the High profile's extension
    }

    @Test("a truncated or wrong-type SPS is a typed error, never a trap")
    func defects() {
        #expect(throws: MediaError.self) { _ = try H264SequenceParameterSet([0x67, 0x64, 0x00]) }
        #expect(throws: MediaError.self) { _ = try H264SequenceParameterSet([0x68, 0x64, 0x00, 0x28]) }
        #expect(throws: MediaError.self) { _ = try H264SequenceParameterSet([0x67, 0x42, 0x00, 0x1E, 0x00, 0x00]) }
    }
}
