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
    private var shifts: [UInt16: UInt8] = [:]
    private var runIndex = 0
    private var lastCC: [UInt16: UInt8] = [:]
    private var lastDTS: [UInt16: UInt64] = [:]
    private var steps: [UInt16: UInt64] = [:]
    private var lastPCR: UInt64?
    private var streams: [UInt16: UInt8] = [:]
    private var pmtPIDs: Set<UInt16> = []
    private var sequenceParameters: [UInt8]?

    /// A rebaser before the first segment.
    public init() {}

    /// Whether the current run is moved at all (false for a stream without discontinuities).
    public var isShifting: Bool { offset != 0 || shifts.values.contains { $0 != 0 } }

    /// The parameters of the run in progress, as text for a checkpoint:
    /// `"<run>:<offset>:<pid>=<shift>,…"`.
    public var run: String {
        let pids = shifts.keys.sorted().map { "\($0)=\(shifts[$0] ?? 0)" }.joined(separator: ",")
        return "\(runIndex):\(offset):\(pids)"
    }

    /// Rewrites `segment` (whole 188-byte packets) in place.
    /// - Throws: `malformed-transport-stream` for bytes that are not whole packets, or a run
    ///   whose program (PIDs, stream types) differs from the previous run's.
    public mutating func rebase(_ segment: inout [UInt8], startsRun: Bool) throws(MediaError) {
        guard segment.count % 188 == 0 else {
            throw MediaError(.malformedTransportStream, "A segment of \(segment.count) bytes is not whole 188-byte packets.")
        }
        if startsRun, !lastDTS.isEmpty {
            try beginRun(segment)
        } else if lastDTS.isEmpty, streams.isEmpty {
            scanProgram(segment)
            sequenceParameters = Self.sequenceParameters(segment, streams: streams)
        }
        let count = segment.count
        let offset = self.offset, first = runIndex > 0
        segment.withUnsafeMutableBufferPointer { bytes in
            var at = 0
            while at < count {
                visit(bytes, at, offset: offset, renumber: first)
                at += 188
            }
        }
    }

    /// Records output already written (after a restart) without changing it.
    public mutating func observe(_ segment: [UInt8]) {
        var copy = segment
        let saved = (offset, shifts)
        offset = 0
        shifts = [:]
        copy.withUnsafeMutableBufferPointer { bytes in
            var at = 0
            while at + 188 <= bytes.count {
                visit(bytes, at, offset: 0, renumber: false)
                at += 188
            }
        }
        (offset, shifts) = saved
        if streams.isEmpty { scanProgram(segment) }
        if sequenceParameters == nil { sequenceParameters = Self.sequenceParameters(segment, streams: streams) }
    }

    /// Restores the run in progress from `run` (as `run` gave it); false when it cannot be read.
    public mutating func resume(run: String) -> Bool {
        let parts = run.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let index = Int(parts[0]), let value = UInt64(parts[1]), value <= MPEGTimestamp.mask else { return false }
        var restored: [UInt16: UInt8] = [:]
        for pair in parts[2].split(separator: ",") {
            let fields = pair.split(separator: "=")
            guard fields.count == 2, let pid = UInt16(fields[0]), let shift = UInt8(fields[1]), pid < 0x2000, shift < 16 else { return false }
            restored[pid] = shift
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
        shifts = [:]
        runIndex += 1
    }

    /// One packet: continuity, PCR, PES timestamps.
    private mutating func visit(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ at: Int, offset: UInt64, renumber: Bool) {
        guard bytes[at] == 0x47 else { return }
        let pid = UInt16(bytes[at + 1] & 0x1F) << 8 | UInt16(bytes[at + 2])
        guard pid != 0x1FFF else { return }
        let control = (bytes[at + 3] >> 4) & 0x3
        let hasPayload = control & 0x1 != 0
        var cc = bytes[at + 3] & 0x0F
        if renumber {
            let shift: UInt8
            if let known = shifts[pid] {
                shift = known
            } else if let last = lastCC[pid] {
                shift = ((hasPayload ? last &+ 1 : last) &- cc) & 0x0F
                shifts[pid] = shift
            } else {
                shift = 0
                shifts[pid] = 0
            }
            if shift != 0 {
                cc = (cc &+ shift) & 0x0F
                bytes[at + 3] = bytes[at + 3] & 0xF0 | cc
            }
        }
        lastCC[pid] = cc
        var payload = at + 4
        if control & 0x2 != 0 {
            let length = Int(bytes[at + 4])
            payload = at + 5 + length
            if length >= 7, bytes[at + 5] & 0x10 != 0 {
                let pcr = Self.readPCR(UnsafeBufferPointer(bytes), at + 6)
                let moved = (pcr + offset) & MPEGTimestamp.mask
                if offset != 0 { Self.writePCR(bytes, at + 6, moved) }
                lastPCR = moved
            }
        }
        guard hasPayload, bytes[at + 1] & 0x40 != 0, payload + 19 <= at + 188,
              bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
              Self.hasOptionalHeader(bytes[payload + 3]) else { return }
        let flags = bytes[payload + 7] >> 6
        guard flags & 0x2 != 0 else { return }
        var dts = Self.readTimestamp(UnsafeBufferPointer(bytes), payload + 9)
        if offset != 0 { Self.writeTimestamp(bytes, payload + 9, (dts + offset) & MPEGTimestamp.mask) }
        if flags == 0x3 {
            dts = Self.readTimestamp(UnsafeBufferPointer(bytes), payload + 14)
            if offset != 0 { Self.writeTimestamp(bytes, payload + 14, (dts + offset) & MPEGTimestamp.mask) }
        }
        let moved = (dts + offset) & MPEGTimestamp.mask
        if let previous = lastDTS[pid] {
            let step = MPEGTimestamp.difference(moved, previous)
            if step > 0, step < 90_000 { steps[pid] = UInt64(step) }
        }
        lastDTS[pid] = moved
    }

    /// Reads the PAT and PMT sections that start in `segment` into `pmtPIDs` and `streams`.
    private mutating func scanProgram(_ segment: [UInt8]) {
        var at = 0
        while at + 188 <= segment.count {
            defer { at += 188 }
            guard segment[at] == 0x47, segment[at + 1] & 0x40 != 0 else { continue }
            let pid = UInt16(segment[at + 1] & 0x1F) << 8 | UInt16(segment[at + 2])
            guard pid == 0 || pmtPIDs.contains(pid) else { continue }
            var start = at + 4
            if segment[at + 3] & 0x20 != 0 { start += 1 + Int(segment[at + 4]) }
            guard start < at + 188 else { continue }
            start += 1 + Int(segment[start])    // pointer field
            guard start + 8 <= at + 188 else { continue }
            let length = Int(segment[start + 1] & 0x0F) << 8 | Int(segment[start + 2])
            let end = min(at + 188, start + 3 + length - 4)    // without the CRC
            if pid == 0, segment[start] == 0x00 {
                var entry = start + 8
                while entry + 4 <= end {
                    let program = UInt16(segment[entry]) << 8 | UInt16(segment[entry + 1])
                    if program != 0 { pmtPIDs.insert(UInt16(segment[entry + 2] & 0x1F) << 8 | UInt16(segment[entry + 3])) }
                    entry += 4
                }
            } else if segment[start] == 0x02, start + 12 <= end {
                let infoLength = Int(segment[start + 10] & 0x0F) << 8 | Int(segment[start + 11])
                var entry = start + 12 + infoLength
                var found: [UInt16: UInt8] = [:]
                while entry + 5 <= end {
                    found[UInt16(segment[entry + 1] & 0x1F) << 8 | UInt16(segment[entry + 2])] = segment[entry]
                    entry += 5 + (Int(segment[entry + 3] & 0x0F) << 8 | Int(segment[entry + 4]))
                }
                if streams.isEmpty { streams = found }
            }
        }
    }

    private static func describe(_ streams: [UInt16: UInt8]) -> String {
        streams.keys.sorted().map { "0x\(String($0, radix: 16))/0x\(String(streams[$0] ?? 0, radix: 16))" }.joined(separator: ", ")
    }
}
