/// Validates an MPEG-TS stream as its bytes stream past in chunks of any size (ISO/IEC 13818-1
/// §2.4.3 packets, §2.4.4 PSI, §2.4.3.6 PES; RFC 8216 §3.2): packet sync and size, transport
/// errors and scrambling, adaptation fields, reserved PIDs, continuity counters (with the
/// adaptation-only, duplicate, null-packet and discontinuity-indicator exceptions), PCR order and
/// interval, PAT and PMT (CRC-32, one program, stream types), PES start codes, PTS/DTS flags and
/// marker bits, DTS order and DTS ≤ PTS (modulo 2^33). Each finding has a stable ID
/// (`TSFindingID`), a byte offset and a packet index; at most `maximumPerID` are kept per ID, the
/// rest counted in `suppressed`. No resynchronisation: after lost sync, packet checks stop.
public struct TSValidator: Sendable {
    /// The most findings kept per ID.
    public static let maximumPerID = 20

    private struct PIDState {
        var continuity: UInt8?
        var duplicateSeen = false
        var pcr: UInt64?
        var pcrOffset: UInt64 = 0
        var decodeTime: UInt64?
        /// This segment's first and last decode times, and the last frame step seen.
        var segmentFirst: UInt64?
        var segmentLast: UInt64?
        var step: UInt64?
    }

    private var log = FindingLog(maximumPerID: TSValidator.maximumPerID)
    /// What was found so far, in stream order.
    public var findings: [MediaFinding] { log.findings }
    /// Findings beyond `maximumPerID`, counted per ID.
    public var suppressed: [String: Int] { log.suppressed }
    /// Bytes consumed.
    public private(set) var byteCount: UInt64 = 0

    private var carry: [UInt8] = []
    private var isSyncLost = false
    private var pids: [UInt16: PIDState] = [:]
    // Module-internal rather than private: TSValidator+PSI reads and fills these.
    var packetIndex: UInt64 = 0
    var sections: [UInt16: [UInt8]] = [:]
    var pmtPID: UInt16?
    var pcrPID: UInt16?
    var streamTypes: [UInt16: UInt8] = [:]
    var sawPAT = false
    var sawPMT = false
    /// PIDs whose first packet after a segment join has not been seen yet.
    private var joiningPIDs: Set<UInt16> = []

    /// A validator at the start of a stream.
    public init() {}

    /// Ends one HLS segment: a segment must end on a packet boundary, so leftover bytes are a
    /// `ts-partial-packet` here rather than being joined to the next segment's. With
    /// `expectedDuration` (its EXTINF), the media the segment holds — from the first to the last
    /// decode time of its video stream (else its PCR stream) plus one frame — must match it
    /// within a frame, or `ts-extinf-mismatch` (a playlist that lies makes players drift).
    public mutating func endSegment(expectedDuration: Double? = nil) {
        if let expectedDuration { checkDuration(expectedDuration) }
        guard !carry.isEmpty else { return }
        report(.partialPacket, at: byteCount, packet: packetIndex,
               "The segment ends \(carry.count) bytes into a packet; 188-byte packets were expected.")
        byteCount += UInt64(carry.count)
        carry.removeAll()
    }

    /// Marks the start of the next HLS segment (call between segments, on a packet boundary).
    /// Continuity counters may restart at a join — many packagers do — so a break there is
    /// `ts-continuity-join` (info), not an error. With `discontinuity` (EXT-X-DISCONTINUITY),
    /// counters, PCRs and decode times all start afresh.
    public mutating func beginSegment(discontinuity: Bool) {
        if discontinuity {
            for pid in pids.keys {
                pids[pid]?.continuity = nil
                pids[pid]?.pcr = nil
                pids[pid]?.decodeTime = nil
            }
        }
        joiningPIDs = Set(pids.keys)
        for pid in pids.keys {
            pids[pid]?.segmentFirst = nil
            pids[pid]?.segmentLast = nil
        }
    }

    private mutating func checkDuration(_ expected: Double) {
        let video = streamTypes.first { $0.value == 0x1B || $0.value == 0x24 || $0.value == 0x02 }?.key
        guard let pid = video ?? pcrPID, let state = pids[pid], let first = state.segmentFirst, let last = state.segmentLast,
              let step = state.step else { return }
        let media = Double(MPEGTimestamp.forward(from: first, to: last) + step) / 90_000
        let frame = Double(step) / 90_000
        guard abs(media - expected) > max(frame, 0.001) + 0.0005 else { return }
        report(.durationMismatch, at: byteCount, packet: packetIndex,
               "The segment holds \(media) s of media (PID \(pid)) but its EXTINF says \(expected) s.")
    }

    /// Feeds the next bytes.
    /// - Complexity: O(n).
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        if !carry.isEmpty {
            let take = min(188 - carry.count, bytes.count)
            carry.append(contentsOf: bytes[0..<take])
            index = take
            if carry.count == 188 {
                let packet = carry
                carry.removeAll(keepingCapacity: true)
                packet.withUnsafeBytes { check($0) }
            }
        }
        while bytes.count - index >= 188 {
            check(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 188)]))
            index += 188
        }
        if index < bytes.count { carry.append(contentsOf: bytes[index...]) }
    }

    /// Feeds the next bytes.
    public mutating func consume(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { consume($0) }
    }

    /// Ends the stream: adds the end-of-stream findings and returns every finding.
    public mutating func finish() -> [MediaFinding] {
        if !carry.isEmpty {
            report(.partialPacket, at: byteCount, packet: packetIndex,
                   "The stream ends \(carry.count) bytes into a packet; 188-byte packets were expected.")
        }
        if packetIndex == 0, carry.isEmpty {
            report(.empty, at: 0, packet: nil, "The stream holds no MPEG-TS packet.")
        } else if !isSyncLost {
            if !sawPAT {
                report(.missingPAT, at: 0, packet: nil, "No program association table (PID 0) was found; the segment cannot be decoded on its own.")
            } else if !sawPMT {
                report(.missingPMT, at: 0, packet: nil, "The program map table the PAT points to (PID \(pmtPID ?? 0)) was not found.")
            }
        }
        carry.removeAll()
        return findings
    }

    // MARK: Packets

    private mutating func check(_ packet: UnsafeRawBufferPointer) {
        defer {
            packetIndex += 1
            byteCount += 188
        }
        guard !isSyncLost else { return }
        let offset = byteCount
        guard packet[0] == 0x47 else {
            isSyncLost = true
            report(.syncLost, at: offset, packet: packetIndex,
                   "The packet starts with 0x\(String(packet[0], radix: 16)) instead of the sync byte 0x47; checks stop here.")
            return
        }
        let pid = UInt16(packet[1] & 0x1F) << 8 | UInt16(packet[2])
        let unitStart = packet[1] & 0x40 != 0
        let control = (packet[3] >> 4) & 3
        if packet[1] & 0x80 != 0 {
            report(.transportError, at: offset, packet: packetIndex, "PID \(pid) is marked damaged (transport_error_indicator).")
        }
        if packet[3] >> 6 != 0 {
            report(.scrambled, at: offset, packet: packetIndex, "PID \(pid) is scrambled at the packet level, which HLS never does.")
        }
        guard control != 0 else {
            report(.reservedAdaptationControl, at: offset, packet: packetIndex, "PID \(pid) uses the reserved adaptation_field_control 00.")
            return
        }
        var payloadStart = 4
        var discontinuity = false
        var pcr: UInt64?
        if control & 2 != 0 {
            let length = Int(packet[4])
            guard control == 2 ? length == 183 : length <= 182 else {
                report(.adaptationLength, at: offset, packet: packetIndex,
                       "PID \(pid) has an adaptation field of \(length) bytes, which does not fit its packet.")
                return
            }
            if length > 0 {
                discontinuity = packet[5] & 0x80 != 0
                if packet[5] & 0x10 != 0, length >= 7 {
                    let base = UInt64(packet[6]) << 25 | UInt64(packet[7]) << 17 | UInt64(packet[8]) << 9
                        | UInt64(packet[9]) << 1 | UInt64(packet[10]) >> 7
                    pcr = base * 300 + (UInt64(packet[10] & 1) << 8 | UInt64(packet[11]))
                }
            }
            payloadStart = 5 + length
        }
        if (0x0002...0x000F).contains(pid) {
            report(.reservedPID, at: offset, packet: packetIndex, "PID \(pid) is reserved (0x0002–0x000F).")
        }
        continuity(pid, counter: packet[3] & 0x0F, hasPayload: control & 1 != 0, discontinuity: discontinuity, offset: offset)
        if let pcr { clockReference(pid, pcr, discontinuity: discontinuity, offset: offset) }
        guard control & 1 != 0, payloadStart < 188 else { return }
        let payload = UnsafeRawBufferPointer(rebasing: packet[payloadStart...])
        if pid == 0 || pid == pmtPID {
            sectionBytes(pid, payload, unitStart: unitStart, offset: offset)
        } else if unitStart, streamTypes[pid] != nil {
            pes(pid, payload, offset: offset)
        }
    }

    private mutating func continuity(_ pid: UInt16, counter: UInt8, hasPayload: Bool, discontinuity: Bool, offset: UInt64) {
        guard pid != 0x1FFF else { return }
        var state = pids[pid, default: PIDState()]
        defer { pids[pid] = state }
        guard let last = state.continuity, !discontinuity else {
            state.continuity = counter
            state.duplicateSeen = false
            return
        }
        if !joiningPIDs.isEmpty, joiningPIDs.remove(pid) != nil, counter != (last + 1) & 0x0F, counter != last {
            report(.continuityAtJoin, at: offset, packet: packetIndex,
                   "PID \(pid)'s continuity counter restarts at a segment join (\(last) then \(counter)).")
            state.continuity = counter
            state.duplicateSeen = false
            return
        }
        if hasPayload {
            if counter == (last + 1) & 0x0F {
                state.duplicateSeen = false
            } else if counter == last, !state.duplicateSeen {
                state.duplicateSeen = true   // one duplicate packet is legal
            } else {
                report(.continuity, at: offset, packet: packetIndex,
                       "PID \(pid)'s continuity counter went from \(last) to \(counter), expected \((last + 1) & 0x0F): packets were lost, reordered or repeated.")
                state.duplicateSeen = false
            }
        } else if counter != last {
            report(.continuity, at: offset, packet: packetIndex,
                   "PID \(pid)'s adaptation-only packet changed the continuity counter from \(last) to \(counter).")
        }
        state.continuity = counter
    }

    private mutating func clockReference(_ pid: UInt16, _ pcr: UInt64, discontinuity: Bool, offset: UInt64) {
        let wrap: UInt64 = (1 << 33) * 300
        var state = pids[pid, default: PIDState()]
        defer { pids[pid] = state }
        if let last = state.pcr, !discontinuity {
            let forward = (pcr &+ wrap &- last) % wrap
            if forward == 0 || forward > wrap / 2 {
                report(.pcrBackwards, at: offset, packet: packetIndex, "PID \(pid)'s PCR did not increase without a discontinuity_indicator.")
            } else if forward > 2_700_000 {
                report(.pcrInterval, at: offset, packet: packetIndex,
                       "PID \(pid)'s PCRs are \(forward / 27_000) ms apart; at most 100 ms is allowed.")
            }
        }
        state.pcr = pcr
        state.pcrOffset = offset
    }

    // MARK: PES

    private mutating func pes(_ pid: UInt16, _ payload: UnsafeRawBufferPointer, offset: UInt64) {
        guard payload.count >= 6, payload[0] == 0, payload[1] == 0, payload[2] == 1 else {
            report(.pesStart, at: offset, packet: packetIndex, "PID \(pid) starts a unit without the PES start code 00 00 01.")
            return
        }
        let streamID = payload[3]
        // Streams without the optional PES header (padding, private_stream_2, ECM, EMM, DSM-CC, …).
        guard ![0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF].contains(streamID), payload.count >= 9 else { return }
        let flags = payload[7] >> 6
        let isMedia = (0xC0...0xEF).contains(streamID)
        switch flags {
        case 1:
            report(.pesFlags, at: offset, packet: packetIndex, "PID \(pid)'s PES header has the forbidden PTS_DTS_flags 01.")
            return
        case 0:
            if isMedia { report(.pesNoPTS, at: offset, packet: packetIndex, "PID \(pid)'s PES carries no PTS.") }
            return
        default:
            break
        }
        guard payload.count >= (flags == 3 ? 19 : 14) else { return }
        guard let pts = Self.timestamp(payload, at: 9, prefix: flags == 3 ? 3 : 2) else {
            report(.timestampMarkers, at: offset, packet: packetIndex, "PID \(pid)'s PTS has wrong prefix or marker bits.")
            return
        }
        var decode = pts
        if flags == 3 {
            guard let dts = Self.timestamp(payload, at: 14, prefix: 1) else {
                report(.timestampMarkers, at: offset, packet: packetIndex, "PID \(pid)'s DTS has wrong prefix or marker bits.")
                return
            }
            if MPEGTimestamp.forward(from: dts, to: pts) >= 1 << 32 {
                report(.dtsAfterPTS, at: offset, packet: packetIndex, "PID \(pid) decodes a frame after presenting it (DTS > PTS).")
            }
            decode = dts
        }
        if let last = pids[pid]?.decodeTime {
            let step = MPEGTimestamp.forward(from: last, to: decode)
            if step == 0 || step >= 1 << 32 {
                report(.decodeOrder, at: offset, packet: packetIndex,
                       "PID \(pid)'s decode time did not increase (\(last) then \(decode), in 90 kHz ticks).")
            } else if step < 90_000 {
                pids[pid]?.step = step
            }
        }
        pids[pid, default: PIDState()].decodeTime = decode
        if pids[pid]?.segmentFirst == nil { pids[pid]?.segmentFirst = decode }
        pids[pid]?.segmentLast = decode
    }

    /// A 33-bit PES timestamp at `index` with its 4-bit `prefix` and three marker bits, or nil.
    private static func timestamp(_ bytes: UnsafeRawBufferPointer, at index: Int, prefix: UInt8) -> UInt64? {
        let b = (0..<5).map { bytes[index + $0] }
        guard b[0] >> 4 == prefix, b[0] & 1 == 1, b[2] & 1 == 1, b[4] & 1 == 1 else { return nil }
        return MPEGTimestamp.decode(b[0], b[1], b[2], b[3], b[4])
    }

    // MARK: Findings

    mutating func report(_ id: TSFindingID, at offset: UInt64, packet: UInt64?, _ message: String) {
        log.report(id.rawValue, id.severity, at: offset, packet: packet, message)
    }
}
