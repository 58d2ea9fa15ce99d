/// Joins MPEG-TS runs separated by `EXT-X-DISCONTINUITY` into one continuous stream (media.md
/// §2.10). At the start of each run after the first, one offset for all PIDs moves the run's
/// first decode time to just after the previous run's last one plus a frame (and never lets the
/// PCR go back); the offset is added in place to every PTS, DTS and PCR base — fixed-width
/// fields, so nothing moves — and each PID's continuity counter is shifted to continue from the
/// previous run (one shift per PID per run, so legal duplicates stay duplicates). A run whose
/// program differs (other PIDs or stream types) or whose video configuration differs (another
/// H.264/HEVC sequence parameter set: resolution, profile, frame rate) is refused: one file holds
/// one program layout, and players and muxers mistime frames across such a change.
///
/// Segments go through `rebase(_:startsRun:)` in order. After a restart, `observe(_:)` replays
/// the output already written and `resume(run:)` restores the parameters of the run in progress
/// (`run` of the last written segment).
public struct TSTimestampRebaser: Sendable {
    /// The frame step assumed for a PID whose step is not known yet (40 ms at 90 kHz).
    static let defaultStep: UInt64 = 3600

    private var offset: UInt64 = 0
    /// Each PID's continuity shift in this run (looked up for every packet, so indexed by PID).
    private var shifts = PIDTable<UInt8>()
    private var runIndex = 0
    private var lastCC = PIDTable<UInt8>()
    private var lastDTS: [UInt16: UInt64] = [:]
    private var steps: [UInt16: UInt64] = [:]
    private var lastPCR: UInt64?
    private var streams: [UInt16: TSStreamType] = [:]
    private var pmtPIDs: Set<UInt16> = []
    private var sequenceParameters: [UInt8]?

    /// A rebaser before the first segment.
    public init() {}

    /// Whether the current run is moved at all (false for a stream without discontinuities).
    public var isShifting: Bool { offset != 0 || shifts.pids.contains { shifts[$0] != 0 } }

    /// The parameters of the run in progress, as text for a checkpoint:
    /// `"<run>:<offset>:<pid>=<shift>,…"`.
    public var run: String {
        let pids = shifts.pids.sorted().map { "\($0)=\(shifts[$0] ?? 0)" }.joined(separator: ",")
        return "\(runIndex):\(offset):\(pids)"
    }

    /// Rewrites `segment` (whole 188-byte packets) in place.
    /// - Throws: `malformed-transport-stream` for bytes that are not whole packets, or a run
    ///   whose program (PIDs, stream types) differs from the previous run's.
    public mutating func rebase(_ segment: inout [UInt8], startsRun: Bool) throws(MediaError) {
        try beginSegment(segment, startsRun: startsRun)
        try rebaseChunk(&segment)
    }

    /// Starts a segment whose first bytes are `head` (a few MiB are enough to find its program,
    /// video configuration and first timestamps): at the start of a run, decides its offset.
    /// Then `rebaseChunk` rewrites the segment's bytes, chunk by chunk.
    /// - Throws: `malformed-transport-stream` for a run whose program or video configuration
    ///   differs from the previous run's.
    public mutating func beginSegment(_ head: [UInt8], startsRun: Bool) throws(MediaError) {
        if startsRun, !lastDTS.isEmpty {
            try beginRun(head)
        } else if lastDTS.isEmpty, streams.isEmpty {
            scanProgram(head)
            sequenceParameters = Self.sequenceParameters(head, streams: streams)
        }
    }

    /// Rewrites the next bytes of the segment begun (whole 188-byte packets) in place.
    /// - Throws: `malformed-transport-stream` for bytes that are not whole packets.
    public mutating func rebaseChunk(_ chunk: inout [UInt8]) throws(MediaError) {
        guard chunk.count % TSPacket.size == 0 else {
            throw MediaError(.malformedTransportStream, "A segment of \(chunk.count) bytes is not whole 188-byte packets.")
        }
        let offset = self.offset, first = runIndex > 0
        chunk.withUnsafeMutableBytes { bytes in
            var at = 0
            while at < bytes.count {
                visit(UnsafeMutableRawBufferPointer(rebasing: bytes[at..<at + TSPacket.size]), offset: offset, renumber: first)
                at += TSPacket.size
            }
        }
    }

    /// Records output already written (after a restart) without changing it.
    public mutating func observe(_ segment: [UInt8]) {
        observeChunk(segment, startsSegment: true)
    }

    /// Records the next bytes of output already written (whole packets; `startsSegment` for the
    /// first chunk of a segment) without changing them.
    public mutating func observeChunk(_ chunk: [UInt8], startsSegment: Bool) {
        var copy = chunk
        let saved = (offset, shifts)
        offset = 0
        shifts = PIDTable()
        copy.withUnsafeMutableBytes { bytes in
            var at = 0
            while at + TSPacket.size <= bytes.count {
                visit(UnsafeMutableRawBufferPointer(rebasing: bytes[at..<at + TSPacket.size]), offset: 0, renumber: false)
                at += TSPacket.size
            }
        }
        (offset, shifts) = saved
        guard startsSegment else { return }
        if streams.isEmpty { scanProgram(chunk) }
        if sequenceParameters == nil { sequenceParameters = Self.sequenceParameters(chunk, streams: streams) }
    }

    /// Restores the run in progress from `run` (as `run` gave it); false when it cannot be read.
    public mutating func resume(run: String) -> Bool {
        let parts = run.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let index = Int(parts[0]), let value = UInt64(parts[1]), value <= MPEGTimestamp.mask else { return false }
        var restored = PIDTable<UInt8>()
        for pair in parts[2].split(separator: ",") {
            let fields = pair.split(separator: "=")
            guard fields.count == 2, let pid = UInt16(fields[0]), let shift = UInt8(fields[1]), pid <= TSConstants.nullPID, shift < 16 else { return false }
            restored[pid, default: 0] = shift
        }
        runIndex = index
        offset = value
        shifts = restored
        return true
    }

    // MARK: Runs

    private mutating func beginRun(_ segment: [UInt8]) throws(MediaError) {
        let previous = streams
        streams = [:]
        scanProgram(segment)
        if !previous.isEmpty, !streams.isEmpty, previous != streams {
            throw MediaError(.malformedTransportStream,
                             "The program changes at a discontinuity (streams \(Self.describe(previous)) become \(Self.describe(streams))); one file cannot hold both.")
        }
        if streams.isEmpty { streams = previous }
        let parameters = Self.sequenceParameters(segment, streams: streams)
        if let before = sequenceParameters, let parameters, before != parameters {
            throw MediaError(.malformedTransportStream,
                             "The video configuration changes at a discontinuity (another sequence parameter set: resolution, profile or frame rate); one file cannot hold both runs cleanly.")
        }
        sequenceParameters = parameters ?? sequenceParameters
        let (firstDTS, firstPCR) = Self.firstTimes(segment)
        guard let firstDTS else { return }    // no timestamp in the first segment: keep the offset
        var end: UInt64?
        for (pid, dts) in lastDTS {
            let candidate = (dts + (steps[pid] ?? Self.defaultStep)) & MPEGTimestamp.mask
            if let best = end, MPEGTimestamp.difference(candidate, best) <= 0 { continue }
            end = candidate
        }
        guard let end else { return }
        var newOffset = (end &- firstDTS) & MPEGTimestamp.mask
        if let firstPCR, let lastPCR {
            let behind = MPEGTimestamp.difference((firstPCR + newOffset) & MPEGTimestamp.mask, lastPCR)
            if behind <= 0 { newOffset = (newOffset + UInt64(1 - behind)) & MPEGTimestamp.mask }
        }
        offset = newOffset
        shifts = PIDTable()
        runIndex += 1
    }

    /// One packet: continuity, PCR, PES timestamps.
    private mutating func visit(_ bytes: UnsafeMutableRawBufferPointer, offset: UInt64, renumber: Bool) {
        let packet: TSPacket
        do {
            packet = try TSPacket(UnsafeRawBufferPointer(bytes))
        } catch {
            // A broken adaptation field still keeps its counter in step; the validator reports it.
            if case .adaptationFieldLength(_, let header) = error { continueCounter(bytes, header, renumber: renumber) }
            return
        }
        guard packet.pid != TSConstants.nullPID else { return }
        continueCounter(bytes, packet.header, renumber: renumber)
        if let pcr = packet.adaptationField?.programClockReferenceBase {
            let moved = (pcr + offset) & MPEGTimestamp.mask
            if offset != 0 { MPEGTimestamp.writeClockBase(bytes, at: TSAdaptationField.programClockReferenceOffset, moved) }
            lastPCR = moved
        }
        guard packet.hasPayload, packet.header.payloadUnitStartIndicator else { return }
        let payload = UnsafeMutableRawBufferPointer(rebasing: bytes[packet.payloadOffset...])
        guard let pes = PESHeader(UnsafeRawBufferPointer(payload)), pes.hasOptionalHeader, payload.count >= 19,
              let ptsAt = pes.ptsOffset else { return }
        var dts = MPEGTimestamp.readField(UnsafeRawBufferPointer(payload), at: ptsAt)
        if offset != 0 { MPEGTimestamp.writeField(payload, at: ptsAt, (dts + offset) & MPEGTimestamp.mask) }
        if let dtsAt = pes.dtsOffset {
            dts = MPEGTimestamp.readField(UnsafeRawBufferPointer(payload), at: dtsAt)
            if offset != 0 { MPEGTimestamp.writeField(payload, at: dtsAt, (dts + offset) & MPEGTimestamp.mask) }
        }
        let moved = (dts + offset) & MPEGTimestamp.mask
        if let previous = lastDTS[packet.pid] {
            let step = MPEGTimestamp.difference(moved, previous)
            if step > 0, step < Int64(MPEGTimestamp.ticksPerSecond) { steps[packet.pid] = UInt64(step) }
        }
        lastDTS[packet.pid] = moved
    }

    /// Shifts the packet's continuity counter to continue from the previous run (one shift per
    /// PID per run, decided at its first packet) and remembers it.
    private mutating func continueCounter(_ bytes: UnsafeMutableRawBufferPointer, _ header: TSPacketHeader, renumber: Bool) {
        let pid = header.pid
        guard pid != TSConstants.nullPID else { return }
        var cc = header.continuityCounter
        if renumber {
            let shift: UInt8
            if let known = shifts[pid] {
                shift = known
            } else if let last = lastCC[pid] {
                shift = ((header.hasPayload ? last &+ 1 : last) &- cc) & 0x0F
                shifts[pid, default: 0] = shift
            } else {
                shift = 0
                shifts[pid, default: 0] = 0
            }
            if shift != 0 {
                cc = (cc &+ shift) & 0x0F
                let at = TSPacket.continuityCounterOffset
                bytes[at] = bytes[at] & 0xF0 | cc
            }
        }
        lastCC[pid, default: 0] = cc
    }

    /// Reads the PAT and PMT sections in `segment` (reassembled across packets) into `pmtPIDs`
    /// and, when none were known, `streams`.
    private mutating func scanProgram(_ segment: [UInt8]) {
        var assembler = PSISectionAssembler()
        var found: [UInt16: TSStreamType]?
        Self.forEachPacket(segment) { packet, bytes in
            let pid = packet.pid
            guard packet.hasPayload, pid == TSConstants.patPID || pmtPIDs.contains(pid) else { return }
            var sections: [[UInt8]] = []
            assembler.consume(pid: pid, payload: packet.payload(of: bytes), unitStart: packet.header.payloadUnitStartIndicator) {
                if case .success(let section) = $0, MPEG2CRC32.checksum(section) == 0 { sections.append(section) }
            }
            for section in sections {
                if pid == TSConstants.patPID, let programs = ProgramTables.programAssociation(section) {
                    pmtPIDs.formUnion(programs.map(\.mapPID))
                } else if found == nil, let map = ProgramTables.programMap(section) {
                    found = Dictionary(map.streams.map { ($0.pid, $0.type) }, uniquingKeysWith: { first, _ in first })
                }
            }
        }
        if streams.isEmpty, let found { streams = found }
    }

    private static func describe(_ streams: [UInt16: TSStreamType]) -> String {
        streams.keys.sorted().map { "0x\(String($0, radix: 16))/\(streams[$0] ?? TSStreamType(0))" }.joined(separator: ", ")
    }
}
