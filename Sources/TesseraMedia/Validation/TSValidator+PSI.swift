/// PSI: PAT and PMT sections reassembled across packets, their CRC-32, one program, and the
/// stream types the PMT declares.
extension TSValidator {
    mutating func sectionBytes(_ pid: UInt16, _ payload: UnsafeRawBufferPointer, unitStart: Bool, offset: UInt64) {
        if unitStart {
            let pointer = Int(payload[0])
            guard 1 + pointer <= payload.count else {
                report(.psiMalformed, at: offset, packet: packetIndex, "PID \(pid)'s pointer_field points past its packet.")
                return
            }
            if var pending = sections[pid] {
                pending.append(contentsOf: payload[1..<(1 + pointer)])
                sections[pid] = pending
                drainSections(pid, offset: offset)
            }
            sections[pid] = Array(payload[(1 + pointer)...])
        } else if sections[pid] != nil {
            sections[pid]?.append(contentsOf: payload)
        } else {
            return
        }
        drainSections(pid, offset: offset)
    }

    /// Parses every complete section buffered for `pid`.
    mutating func drainSections(_ pid: UInt16, offset: UInt64) {
        while let buffer = sections[pid], buffer.count >= 3, buffer[0] != 0xFF {
            let length = Int(buffer[1] & 0x0F) << 8 | Int(buffer[2])
            guard length <= 1021 else {
                report(.psiMalformed, at: offset, packet: packetIndex, "A section on PID \(pid) claims \(length) bytes; at most 1021 are allowed.")
                sections[pid] = nil
                return
            }
            guard buffer.count >= 3 + length else { return }
            let section = Array(buffer[0..<(3 + length)])
            sections[pid] = Array(buffer[(3 + length)...])
            parseSection(pid, section, offset: offset)
        }
    }

    mutating func parseSection(_ pid: UInt16, _ section: [UInt8], offset: UInt64) {
        guard section[1] & 0x80 != 0, section.count >= 12 else {
            report(.psiMalformed, at: offset, packet: packetIndex, "A section on PID \(pid) lacks the long syntax PAT and PMT use.")
            return
        }
        guard MPEG2CRC32.checksum(section) == 0 else {
            report(.psiCRC, at: offset, packet: packetIndex,
                   "The CRC-32 of table 0x\(String(section[0], radix: 16)) on PID \(pid) is wrong (a corrupt table, or a wrong AES-128 IV).")
            return
        }
        let end = section.count - 4
        if pid == 0, section[0] == 0x00 {
            sawPAT = true
            var programs: [(number: UInt16, pid: UInt16)] = []
            var index = 8
            while index + 4 <= end {
                let number = UInt16(section[index]) << 8 | UInt16(section[index + 1])
                let mapPID = UInt16(section[index + 2] & 0x1F) << 8 | UInt16(section[index + 3])
                if number != 0 { programs.append((number, mapPID)) }
                index += 4
            }
            if programs.count != 1 {
                report(.programCount, at: offset, packet: packetIndex,
                       "The PAT lists \(programs.count) programs; HLS needs exactly one.")
            }
            pmtPID = programs.first?.pid
        } else if pid == pmtPID, section[0] == 0x02 {
            sawPMT = true
            pcrPID = UInt16(section[8] & 0x1F) << 8 | UInt16(section[9])
            var index = 12 + (Int(section[10] & 0x0F) << 8 | Int(section[11]))
            while index + 5 <= end {
                let type = section[index]
                let elementaryPID = UInt16(section[index + 1] & 0x1F) << 8 | UInt16(section[index + 2])
                streamTypes[elementaryPID] = type
                checkStreamType(type, elementaryPID, offset: offset)
                index += 5 + (Int(section[index + 3] & 0x0F) << 8 | Int(section[index + 4]))
            }
        }
    }

    mutating func checkStreamType(_ type: UInt8, _ pid: UInt16, offset: UInt64) {
        switch type {
        case 0x1B, 0x24, 0x0F, 0x11, 0x03, 0x04, 0x81, 0x87, 0x15, 0x06:
            break
        case 0xDB, 0xCF, 0xC1, 0xC2:
            report(.sampleAES, at: offset, packet: packetIndex,
                   "PID \(pid) has SAMPLE-AES stream type 0x\(String(type, radix: 16)): its payload is still encrypted.")
        default:
            report(.unknownStreamType, at: offset, packet: packetIndex, "PID \(pid) has an unknown stream type 0x\(String(type, radix: 16)).")
        }
    }
}
