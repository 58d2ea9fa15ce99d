/// The byte-level reading and writing `TSTimestampRebaser` needs: PES timestamps, PCRs, the
/// first decode time of a segment, and the video's sequence parameter set.
extension TSTimestampRebaser {
    /// The first H.264 (NAL type 7) or HEVC (type 33) sequence parameter set of the segment's
    /// video stream, read from the start of its first PES (at most 4 KiB of elementary stream).
    static func sequenceParameters(_ segment: [UInt8], streams: [UInt16: UInt8]) -> [UInt8]? {
        guard let (pid, type) = streams.first(where: { $0.value == 0x1B || $0.value == 0x24 }) else { return nil }
        var elementary: [UInt8] = []
        var at = 0
        var started = false
        while at + 188 <= segment.count, elementary.count < 4096 {
            defer { at += 188 }
            guard segment[at] == 0x47, UInt16(segment[at + 1] & 0x1F) << 8 | UInt16(segment[at + 2]) == pid,
                  segment[at + 3] & 0x10 != 0 else { continue }
            var payload = at + 4
            if segment[at + 3] & 0x20 != 0 { payload += 1 + Int(segment[at + 4]) }
            guard payload < at + 188 else { continue }
            if segment[at + 1] & 0x40 != 0 {
                if started { break }
                guard payload + 9 <= at + 188, segment[payload] == 0, segment[payload + 1] == 0, segment[payload + 2] == 1 else { continue }
                payload += 9 + Int(segment[payload + 8])
                started = true
                guard payload <= at + 188 else { continue }
            }
            if started { elementary += segment[payload..<at + 188] }
        }
        var index = 0
        while index + 3 < elementary.count {
            guard elementary[index] == 0, elementary[index + 1] == 0, elementary[index + 2] == 1 else {
                index += 1
                continue
            }
            let header = elementary[index + 3]
            let isSPS = type == 0x1B ? header & 0x1F == 7 : (header >> 1) & 0x3F == 33
            index += 3
            guard isSPS else { continue }
            var end = index
            while end + 2 < elementary.count, !(elementary[end] == 0 && elementary[end + 1] == 0 && elementary[end + 2] <= 1) { end += 1 }
            return Array(elementary[index..<end])
        }
        return nil
    }

    /// The earliest DTS (or PTS) and the first PCR in `segment`.
    static func firstTimes(_ segment: [UInt8]) -> (dts: UInt64?, pcr: UInt64?) {
        var first: UInt64?, pcr: UInt64?
        var seen: Set<UInt16> = []
        var at = 0
        while at + 188 <= segment.count {
            defer { at += 188 }
            guard segment[at] == 0x47 else { continue }
            let pid = UInt16(segment[at + 1] & 0x1F) << 8 | UInt16(segment[at + 2])
            let control = (segment[at + 3] >> 4) & 0x3
            var payload = at + 4
            if control & 0x2 != 0 {
                let length = Int(segment[at + 4])
                payload = at + 5 + length
                if pcr == nil, length >= 7, segment[at + 5] & 0x10 != 0 {
                    pcr = segment.withUnsafeBufferPointer { readPCR($0, at + 6) }
                }
            }
            guard !seen.contains(pid), control & 0x1 != 0, segment[at + 1] & 0x40 != 0, payload + 19 <= at + 188,
                  segment[payload] == 0, segment[payload + 1] == 0, segment[payload + 2] == 1,
                  hasOptionalHeader(segment[payload + 3]) else { continue }
            let flags = segment[payload + 7] >> 6
            guard flags & 0x2 != 0 else { continue }
            seen.insert(pid)
            let position = flags == 0x3 ? payload + 14 : payload + 9
            let dts = segment.withUnsafeBufferPointer { readTimestamp($0, position) }
            if let earliest = first, MPEGTimestamp.difference(dts, earliest) >= 0 { continue }
            first = dts
        }
        return (first, pcr)
    }

    /// Stream IDs without the PES optional header (ISO/IEC 13818-1 Table 2-22).
    static func hasOptionalHeader(_ streamID: UInt8) -> Bool {
        ![0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xFF, 0xF2, 0xF8].contains(streamID)
    }

    static func readTimestamp(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
        MPEGTimestamp.decode(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4])
    }

    /// Writes a 33-bit timestamp keeping the 4-bit prefix and the marker bits.
    static func writeTimestamp(_ b: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ value: UInt64) {
        b[i] = b[i] & 0xF1 | UInt8(value >> 29 & 0x0E)
        b[i + 1] = UInt8(value >> 22 & 0xFF)
        b[i + 2] = b[i + 2] & 0x01 | UInt8(value >> 14 & 0xFE)
        b[i + 3] = UInt8(value >> 7 & 0xFF)
        b[i + 4] = b[i + 4] & 0x01 | UInt8(value << 1 & 0xFE)
    }

    static func readPCR(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(b[i]) << 25 | UInt64(b[i + 1]) << 17 | UInt64(b[i + 2]) << 9 | UInt64(b[i + 3]) << 1 | UInt64(b[i + 4] >> 7)
    }

    /// Writes the 33-bit PCR base, keeping the reserved bits and the 9-bit extension.
    static func writePCR(_ b: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ base: UInt64) {
        b[i] = UInt8(base >> 25 & 0xFF)
        b[i + 1] = UInt8(base >> 17 & 0xFF)
        b[i + 2] = UInt8(base >> 9 & 0xFF)
        b[i + 3] = UInt8(base >> 1 & 0xFF)
        b[i + 4] = b[i + 4] & 0x7F | UInt8(base << 7 & 0x80)
    }
}
