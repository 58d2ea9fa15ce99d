import Testing
@testable import TesseraMedia

@Suite("PSISectionAssembler")
struct PSISectionAssemblerTests {
    private func sections(_ stream: [UInt8], pid: UInt16) -> [Result<[UInt8], PSISectionAssembler.Defect>] {
        var assembler = PSISectionAssembler()
        var out: [Result<[UInt8], PSISectionAssembler.Defect>] = []
        stream.withUnsafeBytes { raw in
            var at = 0
            while at < raw.count {
                let bytes = UnsafeRawBufferPointer(rebasing: raw[at..<at + 188])
                if let packet = try? TSPacket(bytes), packet.pid == pid, packet.hasPayload {   // test input: always readable
                    assembler.consume(pid: pid, payload: packet.payload(of: bytes), unitStart: packet.header.payloadUnitStartIndicator) {
                        out.append($0)
                    }
                }
                at += 188
            }
        }
        return out
    }

    @Test("a PMT spanning three packets is reassembled whole, and its streams read in table order")
    func multiPacketPMT() throws {
        let pmt = TSBuilder.pmt([(0x1B, 0x100), (0x0F, 0x101), (0x15, 0x102)], descriptorBytes: 150)
        #expect(pmt.count > 2 * 184)
        let result = sections(TSBuilder.packets(of: pmt, pid: 0x1000), pid: 0x1000)
        #expect(result.count == 1)
        let section = try #require(try? result.first?.get())   // the failure case is asserted by the count of one success
        #expect(section == pmt && MPEG2CRC32.checksum(section) == 0)
        let map = try #require(ProgramTables.programMap(section))
        #expect(map.pcrPID == 0x100)
        #expect(map.streams == [.init(type: .h264, pid: 0x100), .init(type: .aacADTS, pid: 0x101), .init(type: .metadataPES, pid: 0x102)])
    }

    @Test("two sections in one payload both come out; a pointer past the packet and an overlong section are defects")
    func framing() throws {
        let pat = TSBuilder.pat(pmtPID: 0x1000)
        let both = [UInt8(0)] + pat + pat
        let packet = TSBuilder.packet(pid: 0, unitStart: true, payload: both + [UInt8](repeating: 0xFF, count: 184 - both.count))
        let results = sections(packet, pid: 0)
        #expect(results.count == 2)
        #expect(ProgramTables.programAssociation(try results[0].get()) == [.init(number: 1, mapPID: 0x1000)])
        var pointer = packet
        pointer[4] = 200
        #expect(sections(pointer, pid: 0).count == 1)
        if case .failure(let defect) = sections(pointer, pid: 0).first { #expect(defect == .pointerPastPacket) } else { Issue.record("no defect") }
        var long = packet
        long[6] = 0xB3
        long[7] = 0xFF    // section_length 1023
        if case .failure(let defect) = sections(long, pid: 0).first { #expect(defect == .sectionTooLong(1023)) } else { Issue.record("no defect") }
    }
}
