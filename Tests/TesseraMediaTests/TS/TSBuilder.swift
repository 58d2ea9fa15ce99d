@testable import TesseraMedia

/// Builds transport stream packets for reader tests: sections with a correct CRC split over
/// packets, PES starts with timestamps, adaptation fields with a PCR.
enum TSBuilder {
    /// One 188-byte packet on `pid` carrying `payload` (stuffed with 0xFF), with an adaptation
    /// field of `adaptation` bytes when asked.
    static func packet(pid: UInt16, unitStart: Bool, counter: UInt8 = 0, payload: [UInt8], pcr: UInt64? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0x47, (unitStart ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10 | counter]
        precondition(payload.count <= (pcr == nil ? 184 : 176))
        if pcr != nil || payload.count < 184 {
            // An adaptation field (with the PCR) stuffed so that the payload ends the packet exactly.
            let size = 183 - payload.count
            var field: [UInt8] = []
            if let pcr {
                field = [0x10, UInt8(pcr >> 25 & 0xFF), UInt8(pcr >> 17 & 0xFF), UInt8(pcr >> 9 & 0xFF), UInt8(pcr >> 1 & 0xFF),
                         UInt8(pcr << 7 & 0x80) | 0x7E, 0]
            } else if size > 0 {
                field = [0x00]
            }
            field += [UInt8](repeating: 0xFF, count: size - field.count)
            bytes[3] = 0x30 | counter
            bytes.append(UInt8(size))
            bytes += field
        }
        bytes += payload
        precondition(bytes.count == 188, "packet is \(bytes.count) bytes")
        return bytes
    }

    /// A long-syntax section of `tableID` with `body` (after the 5 bytes of table ID extension,
    /// version and section numbers) and its CRC-32.
    static func section(tableID: UInt8, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        var section: [UInt8] = [tableID, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), 0, 1, 0xC1, 0, 0] + body
        let crc = MPEG2CRC32.checksum(section)
        section += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return section
    }

    /// A PAT naming one program on `pmtPID`.
    static func pat(pmtPID: UInt16) -> [UInt8] {
        section(tableID: 0x00, body: [0, 1, 0xE0 | UInt8(pmtPID >> 8), UInt8(pmtPID & 0xFF)])
    }

    /// A PMT with `streams` (type, PID), PCR on the first, each with `descriptorBytes` of ES info.
    static func pmt(_ streams: [(UInt8, UInt16)], descriptorBytes: Int = 0) -> [UInt8] {
        var body: [UInt8] = [0xE0 | UInt8(streams[0].1 >> 8), UInt8(streams[0].1 & 0xFF), 0xF0, 0]
        for (type, pid) in streams {
            body += [type, 0xE0 | UInt8(pid >> 8), UInt8(pid & 0xFF), 0xF0 | UInt8(descriptorBytes >> 8), UInt8(descriptorBytes & 0xFF)]
            body += [UInt8](repeating: 0x05, count: descriptorBytes)
        }
        return section(tableID: 0x02, body: body)
    }

    /// `section` as the packets of `pid`: pointer field 0, then as many packets as it needs.
    static func packets(of section: [UInt8], pid: UInt16) -> [UInt8] {
        var out: [UInt8] = []
        var rest = [UInt8(0)] + section
        var first = true
        var counter: UInt8 = 0
        while !rest.isEmpty {
            let take = min(184, rest.count)
            var chunk = Array(rest.prefix(take))
            if take < 184 { chunk += [UInt8](repeating: 0xFF, count: 184 - take) }   // stuffing after the last section
            out += packet(pid: pid, unitStart: first, counter: counter, payload: chunk)
            rest.removeFirst(take)
            first = false
            counter = (counter + 1) & 0x0F
        }
        return out
    }

    /// A PES start on `pid` with a PTS (and DTS) and `data` bytes of elementary stream.
    static func pes(pid: UInt16, counter: UInt8 = 0, pts: UInt64, dts: UInt64? = nil, data: [UInt8] = [0, 0, 1, 9, 0xF0],
                    pcr: UInt64? = nil) -> [UInt8] {
        func field(_ prefix: UInt8, _ value: UInt64) -> [UInt8] {
            [prefix << 4 | UInt8(value >> 29 & 0x0E) | 1, UInt8(value >> 22 & 0xFF), UInt8(value >> 14 & 0xFE) | 1,
             UInt8(value >> 7 & 0xFF), UInt8(value << 1 & 0xFE) | 1]
        }
        let timestamps = dts.map { field(0b0011, pts) + field(0b0001, $0) } ?? field(0b0010, pts)
        let header: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, dts == nil ? 0x80 : 0xC0, UInt8(timestamps.count)] + timestamps
        return packet(pid: pid, unitStart: true, counter: counter, payload: header + data, pcr: pcr)
    }
}
