/// PSI: PAT and PMT sections reassembled across packets (`PSISectionAssembler`), their CRC-32,
/// one program, and the stream types the PMT declares.
extension TSValidator {
    mutating func sectionBytes(_ pid: UInt16, _ payload: UnsafeRawBufferPointer, unitStart: Bool, offset: UInt64) {
        var results: [Result<[UInt8], PSISectionAssembler.Defect>] = []
        sections.consume(pid: pid, payload: payload, unitStart: unitStart) { results.append($0) }
        for result in results {
            switch result {
            case .success(let section): parseSection(pid, section, offset: offset)
            case .failure(.pointerPastPacket):
                report(.psiMalformed, at: offset, packet: packetIndex, "PID \(pid)'s pointer_field points past its packet.")
            case .failure(.sectionTooLong(let length)):
                report(.psiMalformed, at: offset, packet: packetIndex,
                       "A section on PID \(pid) claims \(length) bytes; at most \(TSConstants.maximumSectionLength) are allowed.")
            }
        }
    }

    mutating func parseSection(_ pid: UInt16, _ section: [UInt8], offset: UInt64) {
        guard ProgramTables.hasLongSyntax(section) else {
            report(.psiMalformed, at: offset, packet: packetIndex, "A section on PID \(pid) lacks the long syntax PAT and PMT use.")
            return
        }
        guard MPEG2CRC32.checksum(section) == 0 else {
            report(.psiCRC, at: offset, packet: packetIndex,
                   "The CRC-32 of table 0x\(String(section[0], radix: 16)) on PID \(pid) is wrong (a corrupt table, or a wrong AES-128 IV).")
            return
        }
        if pid == TSConstants.patPID, let programs = ProgramTables.programAssociation(section) {
            sawPAT = true
            if programs.count != 1 {
                report(.programCount, at: offset, packet: packetIndex,
                       "The PAT lists \(programs.count) programs; HLS needs exactly one.")
            }
            pmtPID = programs.first?.mapPID
        } else if pid == pmtPID, let map = ProgramTables.programMap(section) {
            sawPMT = true
            pcrPID = map.pcrPID
            for stream in map.streams {
                streamTypes[stream.pid] = stream.type
                checkStreamType(stream.type, stream.pid, offset: offset)
            }
        }
    }

    mutating func checkStreamType(_ type: TSStreamType, _ pid: UInt16, offset: UInt64) {
        if TSStreamType.sampleAESTypes.contains(type) {
            report(.sampleAES, at: offset, packet: packetIndex,
                   "PID \(pid) has SAMPLE-AES stream type \(type): its payload is still encrypted.")
        } else if !TSStreamType.clearHLSTypes.contains(type) {
            report(.unknownStreamType, at: offset, packet: packetIndex, "PID \(pid) has an unknown stream type \(type).")
        }
    }
}
