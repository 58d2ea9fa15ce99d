/// What `TSTimestampRebaser` reads from a segment before moving it: the first decode time and
/// PCR, and the video's sequence parameter set — all through the shared packet and PES readers.
extension TSTimestampRebaser {
    /// The most elementary-stream bytes searched for a sequence parameter set.
    static let sequenceParameterSearchBytes = 4096

    /// Calls `body` with each readable packet of `segment` (whole 188-byte packets; unreadable
    /// ones are skipped — the validator reports them).
    static func forEachPacket(_ segment: [UInt8], _ body: (TSPacket, UnsafeRawBufferPointer) -> Void) {
        segment.withUnsafeBytes { bytes in
            var at = 0
            while at + TSPacket.size <= bytes.count {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[at..<at + TSPacket.size])
                if let packet = try? TSPacket(raw) { body(packet, raw) }   // else broken: skipped here, reported by the validator
                at += TSPacket.size
            }
        }
    }

    /// The first H.264 (NAL type 7) or HEVC (type 33) sequence parameter set of the segment's
    /// video stream, read from the start of its first PES (at most 4 KiB of elementary stream).
    static func sequenceParameters(_ segment: [UInt8], streams: [UInt16: TSStreamType]) -> [UInt8]? {
        guard let (pid, type) = streams.first(where: { $0.value == .h264 || $0.value == .hevc }) else { return nil }
        var elementary: [UInt8] = []
        var started = false
        var ended = false
        forEachPacket(segment) { packet, bytes in
            guard !ended, packet.pid == pid, packet.hasPayload, elementary.count < sequenceParameterSearchBytes else { return }
            var payload = packet.payload(of: bytes)
            if packet.header.payloadUnitStartIndicator {
                if started {
                    ended = true
                    return
                }
                guard let pes = PESHeader(payload), pes.hasOptionalHeader, payload.count >= 9 else { return }
                started = true
                guard pes.dataOffset <= payload.count else { return }
                payload = UnsafeRawBufferPointer(rebasing: payload[pes.dataOffset...])
            }
            if started { elementary += payload }
        }
        var index = 0
        while index + 3 < elementary.count {
            guard elementary[index] == 0, elementary[index + 1] == 0, elementary[index + 2] == 1 else {
                index += 1
                continue
            }
            let header = elementary[index + 3]
            let isSPS = type == .h264 ? header & 0x1F == 7 : (header >> 1) & 0x3F == 33
            index += 3
            guard isSPS else { continue }
            var end = index
            while end + 2 < elementary.count, !(elementary[end] == 0 && elementary[end + 1] == 0 && elementary[end + 2] <= 1) { end += 1 }
            return Array(elementary[index..<end])
        }
        return nil
    }

    /// The earliest first DTS (or PTS) of any PID, and the first PCR, in `segment`.
    static func firstTimes(_ segment: [UInt8]) -> (dts: UInt64?, pcr: UInt64?) {
        var first: UInt64?, pcr: UInt64?
        var seen: Set<UInt16> = []
        forEachPacket(segment) { packet, bytes in
            if pcr == nil { pcr = packet.adaptationField?.programClockReferenceBase }
            guard !seen.contains(packet.pid), packet.hasPayload, packet.header.payloadUnitStartIndicator else { return }
            let payload = packet.payload(of: bytes)
            guard let pes = PESHeader(payload), pes.hasOptionalHeader, payload.count >= 19, let ptsAt = pes.ptsOffset else { return }
            seen.insert(packet.pid)
            let dts = MPEGTimestamp.readField(payload, at: pes.dtsOffset ?? ptsAt)
            if let earliest = first, MPEGTimestamp.difference(dts, earliest) >= 0 { return }
            first = dts
        }
        return (first, pcr)
    }
}
