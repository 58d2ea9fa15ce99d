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
        /// Its first packet after a segment join has not been seen yet.
        var joining = false
    }

    private var log = FindingLog(maximumPerID: TSValidator.maximumPerID)
    /// What was found so far, in stream order.
    public var findings: [MediaFinding] { log.findings }
    /// Findings beyond `maximumPerID`, counted per ID.
    public var suppressed: [String: Int] { log.suppressed }
    /// Bytes consumed.
    public private(set) var byteCount: UInt64 = 0

    private var framer = TSPacketFramer()
    private var isSyncLost = false
    private var pids = PIDTable<PIDState>()
    // Module-internal rather than private: TSValidator+PSI reads and fills these.
    var packetIndex: UInt64 = 0
    var sections = PSISectionAssembler()
    var pmtPID: UInt16?
    var pcrPID: UInt16?
    var streamTypes: [UInt16: TSStreamType] = [:]
    var sawPAT = false
    var sawPMT = false

    /// A validator at the start of a stream.
    public init() {}

    /// Ends one HLS segment: a segment must end on a packet boundary, so leftover bytes are a
    /// `ts-partial-packet` here rather than being joined to the next segment's. With
    /// `expectedDuration` (its EXTINF), the media the segment holds — from the first to the last
    /// decode time of its video stream (else its PCR stream) plus one frame — must match it
    /// within a frame, or `ts-extinf-mismatch` (a playlist that lies makes players drift).
    public mutating func endSegment(expectedDuration: Double? = nil) {
        if let expectedDuration { checkDuration(expectedDuration) }
        guard framer.pendingCount > 0 else { return }
        report(.partialPacket, at: byteCount, packet: packetIndex,
               "The segment ends \(framer.pendingCount) bytes into a packet; 188-byte packets were expected.")
        byteCount += UInt64(framer.pendingCount)
        framer.discardPending()
    }

    /// Marks the start of the next HLS segment (call between segments, on a packet boundary).
    /// Continuity counters may restart at a join — many packagers do — so a break there is
    /// `ts-continuity-join` (info), not an error. With `discontinuity` (EXT-X-DISCONTINUITY),
    /// counters, PCRs and decode times all start afresh.
    public mutating func beginSegment(discontinuity: Bool) {
        pids.updateAll { state in
            if discontinuity {
                state.continuity = nil
                state.pcr = nil
                state.decodeTime = nil
            }
            state.joining = true
            state.segmentFirst = nil
            state.segmentLast = nil
        }
    }

    private mutating func checkDuration(_ expected: Double) {
        let video = streamTypes.first { $0.value.isVideo }?.key
        guard let pid = video ?? pcrPID, let state = pids[pid], let first = state.segmentFirst, let last = state.segmentLast,
              let step = state.step else { return }
        let media = Double(MPEGTimestamp.forward(from: first, to: last) + step) / Double(MPEGTimestamp.ticksPerSecond)
        let frame = Double(step) / Double(MPEGTimestamp.ticksPerSecond)
        guard abs(media - expected) > max(frame, 0.001) + 0.0005 else { return }
        report(.durationMismatch, at: byteCount, packet: packetIndex,
               "The segment holds \(media) s of media (PID \(pid)) but its EXTINF says \(expected) s.")
    }

    /// Feeds the next bytes.
    /// - Complexity: O(n).
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        let cut = framer.cut(bytes)
        cut.completed?.withUnsafeBytes { check($0) }
        for start in stride(from: cut.whole.lowerBound, to: cut.whole.upperBound, by: TSPacket.size) {
            check(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + TSPacket.size)]))
        }
    }

    /// Feeds the next bytes.
    public mutating func consume(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { consume($0) }
    }

    /// Ends the stream: adds the end-of-stream findings and returns every finding.
    public mutating func finish() -> [MediaFinding] {
        if framer.pendingCount > 0 {
            report(.partialPacket, at: byteCount, packet: packetIndex,
                   "The stream ends \(framer.pendingCount) bytes into a packet; 188-byte packets were expected.")
        }
        if packetIndex == 0, framer.pendingCount == 0 {
            report(.empty, at: 0, packet: nil, "The stream holds no MPEG-TS packet.")
        } else if !isSyncLost {
            if !sawPAT {
                report(.missingPAT, at: 0, packet: nil, "No program association table (PID 0) was found; the segment cannot be decoded on its own.")
            } else if !sawPMT {
                report(.missingPMT, at: 0, packet: nil, "The program map table the PAT points to (PID \(pmtPID ?? 0)) was not found.")
            }
        }
        framer.discardPending()
        return findings
    }

    // MARK: Packets

    private mutating func check(_ bytes: UnsafeRawBufferPointer) {
        defer {
            packetIndex += 1
            byteCount += UInt64(TSPacket.size)
        }
        guard !isSyncLost else { return }
        let offset = byteCount
        let packet: TSPacket
        do {
            packet = try TSPacket(bytes)
        } catch {
            switch error {
            case .syncByte(let byte):
                isSyncLost = true
                report(.syncLost, at: offset, packet: packetIndex,
                       "The packet starts with 0x\(String(byte, radix: 16)) instead of the sync byte 0x47; checks stop here.")
            case .reservedAdaptationFieldControl(let header):
                checkHeader(header, offset: offset)
                report(.reservedAdaptationControl, at: offset, packet: packetIndex,
                       "PID \(header.pid) uses the reserved adaptation_field_control 00.")
            case .adaptationFieldLength(let length, let header):
                checkHeader(header, offset: offset)
                report(.adaptationLength, at: offset, packet: packetIndex,
                       "PID \(header.pid) has an adaptation field of \(length) bytes, which does not fit its packet.")
            }
            return
        }
        let header = packet.header
        let pid = header.pid
        checkHeader(header, offset: offset)
        if TSConstants.reservedPIDs.contains(pid) {
            report(.reservedPID, at: offset, packet: packetIndex, "PID \(pid) is reserved (0x0002–0x000F).")
        }
        let discontinuity = packet.adaptationField?.discontinuityIndicator ?? false
        continuity(pid, counter: header.continuityCounter, hasPayload: header.hasPayload, discontinuity: discontinuity, offset: offset)
        if let pcr = packet.adaptationField?.programClockReference {
            clockReference(pid, pcr, discontinuity: discontinuity, offset: offset)
        }
        guard packet.hasPayload else { return }
        let payload = packet.payload(of: bytes)
        if pid == TSConstants.patPID || pid == pmtPID {
            sectionBytes(pid, payload, unitStart: header.payloadUnitStartIndicator, offset: offset)
        } else if header.payloadUnitStartIndicator, streamTypes[pid] != nil {
            pes(pid, payload, offset: offset)
        }
    }

    /// The header flags HLS never sets.
    private mutating func checkHeader(_ header: TSPacketHeader, offset: UInt64) {
        if header.transportErrorIndicator {
            report(.transportError, at: offset, packet: packetIndex, "PID \(header.pid) is marked damaged (transport_error_indicator).")
        }
        if header.transportScramblingControl != 0 {
            report(.scrambled, at: offset, packet: packetIndex, "PID \(header.pid) is scrambled at the packet level, which HLS never does.")
        }
    }

    private mutating func continuity(_ pid: UInt16, counter: UInt8, hasPayload: Bool, discontinuity: Bool, offset: UInt64) {
        guard pid != TSConstants.nullPID else { return }
        var state = pids[pid, default: PIDState()]
        defer { pids[pid, default: PIDState()] = state }
        guard let last = state.continuity, !discontinuity else {
            state.continuity = counter
            state.duplicateSeen = false
            return
        }
        if state.joining {
            state.joining = false
            guard counter == (last + 1) & 0x0F || counter == last else {
                report(.continuityAtJoin, at: offset, packet: packetIndex,
                       "PID \(pid)'s continuity counter restarts at a segment join (\(last) then \(counter)).")
                state.continuity = counter
                state.duplicateSeen = false
                return
            }
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
        defer { pids[pid, default: PIDState()] = state }
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
        guard let header = PESHeader(payload) else {
            report(.pesStart, at: offset, packet: packetIndex, "PID \(pid) starts a unit without the PES start code 00 00 01.")
            return
        }
        guard header.hasOptionalHeader, payload.count >= 9 else { return }
        let isMedia = PESStreamID.audioAndVideo.contains(header.streamID)
        switch header.ptsDTSFlags {
        case 0b01:
            report(.pesFlags, at: offset, packet: packetIndex, "PID \(pid)'s PES header has the forbidden PTS_DTS_flags 01.")
            return
        case 0b00:
            if isMedia { report(.pesNoPTS, at: offset, packet: packetIndex, "PID \(pid)'s PES carries no PTS.") }
            return
        default:
            break
        }
        guard header.timestampsFit(in: payload.count), let ptsAt = header.ptsOffset else { return }
        guard let pts = MPEGTimestamp.readCheckedField(payload, at: ptsAt, prefix: header.ptsDTSFlags == 0b11 ? 0b0011 : 0b0010) else {
            report(.timestampMarkers, at: offset, packet: packetIndex, "PID \(pid)'s PTS has wrong prefix or marker bits.")
            return
        }
        var decode = pts
        if let dtsAt = header.dtsOffset {
            guard let dts = MPEGTimestamp.readCheckedField(payload, at: dtsAt, prefix: 0b0001) else {
                report(.timestampMarkers, at: offset, packet: packetIndex, "PID \(pid)'s DTS has wrong prefix or marker bits.")
                return
            }
            if MPEGTimestamp.forward(from: dts, to: pts) >= 1 << 32 {
                report(.dtsAfterPTS, at: offset, packet: packetIndex, "PID \(pid) decodes a frame after presenting it (DTS > PTS).")
            }
            decode = dts
        }
        var state = pids[pid, default: PIDState()]
        if let last = state.decodeTime {
            let step = MPEGTimestamp.forward(from: last, to: decode)
            if step == 0 || step >= 1 << 32 {
                report(.decodeOrder, at: offset, packet: packetIndex,
                       "PID \(pid)'s decode time did not increase (\(last) then \(decode), in 90 kHz ticks).")
            } else if step < MPEGTimestamp.ticksPerSecond {
                state.step = step
            }
        }
        state.decodeTime = decode
        if state.segmentFirst == nil { state.segmentFirst = decode }
        state.segmentLast = decode
        pids[pid, default: PIDState()] = state
    }

    // MARK: Findings

    mutating func report(_ id: TSFindingID, at offset: UInt64, packet: UInt64?, _ message: String) {
        log.report(id.rawValue, id.severity, at: offset, packet: packet, message)
    }
}
