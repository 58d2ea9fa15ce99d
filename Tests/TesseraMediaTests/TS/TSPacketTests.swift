import Testing
@testable import TesseraMedia

@Suite("TSPacket")
struct TSPacketTests {
    private func read(_ bytes: [UInt8]) throws(TSPacket.Defect) -> TSPacket {
        let result = bytes.withUnsafeBytes { raw -> Result<TSPacket, TSPacket.Defect> in
            do throws(TSPacket.Defect) { return .success(try TSPacket(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    @Test("header fields, adaptation field and PCR are read in table order (ISO/IEC 13818-1 §2.4.3.2, §2.4.3.4)")
    func fields() throws {
        let bytes = TSBuilder.pes(pid: 0x100, counter: 7, pts: 900_000, pcr: 0x1_2345_6789)
        let packet = try read(bytes)
        #expect(packet.pid == 0x100 && packet.header.payloadUnitStartIndicator && packet.header.continuityCounter == 7)
        #expect(packet.header.adaptationFieldControl == 0b11 && packet.hasPayload)
        // Unwrapped first: `#expect(optionalUInt64 == literal)` trips AddressSanitizer in the
        // toolchain's AnyHashable thunk (docs/TESTING.md).
        let base = try #require(packet.adaptationField?.programClockReferenceBase)
        let clock = try #require(packet.adaptationField?.programClockReference)
        #expect(base == 0x1_2345_6789)
        #expect(clock == 0x1_2345_6789 * 300)
        let pes = try #require(bytes.withUnsafeBytes { PESHeader(packet.payload(of: $0)) })
        #expect(pes.streamID == 0xE0 && pes.ptsDTSFlags == 0b10 && pes.ptsOffset == 9 && pes.dtsOffset == nil)
        let pts = bytes.withUnsafeBytes { MPEGTimestamp.readCheckedField(packet.payload(of: $0), at: 9, prefix: 0b0010) }
        #expect(pts == 900_000)
    }

    @Test("a wrong sync byte, the reserved adaptation_field_control and an adaptation field that does not fit are defects")
    func defects() {
        var noSync = TSBuilder.packet(pid: 0x100, unitStart: false, payload: [UInt8](repeating: 0, count: 184))
        noSync[0] = 0x48
        #expect(throws: TSPacket.Defect.self) { try read(noSync) }
        var reserved = noSync
        reserved[0] = 0x47
        reserved[3] = 0x00
        do { _ = try read(reserved); Issue.record("accepted") } catch {
            guard case .reservedAdaptationFieldControl(let header) = error else { Issue.record("\(error)"); return }
            #expect(header.pid == 0x100)
        }
        var long = reserved
        long[3] = 0x30
        long[4] = 183
        do { _ = try read(long); Issue.record("accepted") } catch {
            guard case .adaptationFieldLength(183, _) = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("PES timestamps with wrong prefix or marker bits are refused; DTS sits after PTS")
    func timestamps() throws {
        var bytes = TSBuilder.pes(pid: 0x100, pts: 1000, dts: 900)
        let packet = try read(bytes)
        let payloadStart = packet.payloadOffset
        #expect(bytes.withUnsafeBytes { MPEGTimestamp.readCheckedField(packet.payload(of: $0), at: 14, prefix: 0b0001) } == 900)
        bytes[payloadStart + 9 + 2] &= 0xFE    // a marker bit cleared
        #expect(bytes.withUnsafeBytes { MPEGTimestamp.readCheckedField(packet.payload(of: $0), at: 9, prefix: 0b0011) } == nil)
    }
}
