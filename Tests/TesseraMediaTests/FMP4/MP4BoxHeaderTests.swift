import Testing
@testable import TesseraMedia

@Suite("MP4BoxHeader")
struct MP4BoxHeaderTests {
    private func box(_ type: String, _ payload: [UInt8], large: Bool = false) -> [UInt8] {
        let code = Array(type.utf8)
        if large {
            let size = UInt64(16 + payload.count)
            return [0, 0, 0, 1] + code + (0..<8).map { UInt8(size >> (56 - 8 * UInt64($0)) & 0xFF) } + payload
        }
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + code + payload
    }

    @Test("32-bit, 64-bit largesize, size-0-to-end and uuid headers (ISO/IEC 14496-12 §4.2)")
    func sizes() throws {
        let plain = try MP4BoxHeader.read(box("moof", [1, 2, 3]), at: 0, sizeToEnd: false)
        #expect(plain.type == .moof && plain.size == 11 && plain.headerSize == 8 && plain.payloadSize == 3)
        let large = try MP4BoxHeader.read(box("mdat", [9, 9], large: true), at: 0, sizeToEnd: false)
        #expect(large.type == .mdat && large.size == 18 && large.headerSize == 16)
        let toEnd = try MP4BoxHeader.read([0, 0, 0, 0] + Array("mdat".utf8) + [1, 2, 3, 4], at: 0, sizeToEnd: true)
        #expect(toEnd.size == 12)
        let userType = [UInt8](1...16)
        let uuid = try MP4BoxHeader.read(box("uuid", userType + [7]), at: 0, sizeToEnd: false)
        #expect(uuid.headerSize == 24 && uuid.userType == userType && uuid.payloadSize == 1)
        #expect(MP4BoxType("moof").description == "moof" && MP4BoxType(rawValue: 0x6D6F_0A66).description == "mo?f")
    }

    @Test("headers that do not fit are defects, and a box walk stops at the first")
    func defects() {
        #expect(throws: MP4BoxHeader.Defect.truncated(remaining: 4)) { try MP4BoxHeader.read([0, 0, 0, 8], at: 0, sizeToEnd: false) }
        #expect(throws: MP4BoxHeader.Defect.sizeBelowHeader(size: 4)) { try MP4BoxHeader.read([0, 0, 0, 4] + Array("free".utf8), at: 0, sizeToEnd: false) }
        #expect(throws: MP4BoxHeader.Defect.pastLimit(size: 32, remaining: 8)) { try MP4BoxHeader.read([0, 0, 0, 32] + Array("free".utf8), at: 0, sizeToEnd: false) }
        #expect(throws: MP4BoxHeader.Defect.sizeToEndInside) { try MP4BoxHeader.read([0, 0, 0, 0] + Array("free".utf8), at: 0, sizeToEnd: false) }
        #expect(throws: MP4BoxHeader.Defect.truncatedExtension) { try MP4BoxHeader.read([0, 0, 0, 1] + Array("mdat".utf8) + [0, 0], at: 0, sizeToEnd: false) }
        let bytes = box("styp", [0, 0, 0, 0]) + box("moof", []) + [0, 0, 0]
        let walk = MP4BoxHeader.boxes(in: bytes, 0..<bytes.count, sizeToEnd: true)
        #expect(walk.boxes.map(\.type) == [.styp, .moof])
        #expect(walk.defect?.offset == 20 && walk.defect?.1 == .truncated(remaining: 3))
    }

    @Test("fragment renumbering finds mfhd inside a moof with a 64-bit header")
    func renumberingLargeMoof() {
        let mfhd = box("mfhd", [0, 0, 0, 0, 0, 0, 0, 1])
        let segment = box("moof", mfhd, large: true) + box("mdat", [1])
        var numbering = MP4SegmentAssembly.FragmentNumbering()
        var first = segment
        var second = segment
        #expect(numbering.renumber(&first) == 0)
        #expect(numbering.renumber(&second) == 1)
        let offsets = MP4SegmentAssembly.FragmentNumbering.sequenceOffsets(second)
        #expect(offsets == [16 + 8 + 4])
        #expect(second[offsets[0] + 3] == 2)
    }
}
