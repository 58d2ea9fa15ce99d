/// Reads an MPEG-TS stream, in chunks of any size, into the PES packets of the streams its
/// program map lists (ISO/IEC 13818-1 §2.4.3–§2.4.4): the program association and map tables
/// through the shared `PSISectionAssembler`, each stream's packets joined from its payload unit
/// start to the next (or to the length `PES_packet_length` gives), the header's PTS and DTS
/// checked for their prefix and marker bits. Continuity is the validator's business; a framing
/// the demuxer cannot read past (lost sync, a PES header that does not parse or fit, a packet
/// over `maximumPESBytes`) is a `malformed-transport-stream` error naming its byte offset.
/// Memory: at most one open PES packet per stream.
public struct TSDemuxer: Sendable {
    /// The default bound of one PES packet (a 4K intra frame is a few MiB).
    public static let defaultMaximumPESBytes = 16 << 20

    private struct Open {
        var bytes: [UInt8]
        let offset: UInt64
        let isRandomAccess: Bool
    }

    private let maximumPESBytes: Int
    private var framer = TSPacketFramer()
    private var sections = PSISectionAssembler()
    private var mapPID: UInt16?
    /// Each PID's place in `streams` (none, or -1: not a stream of the map), indexed by PID.
    private var slots = PIDTable<Int16>()
    /// The open PES packet of each stream, by its place in `streams`.
    private var open: [Open?] = []
    private var completed: [PESPacket] = []
    private var failure: MediaError?
    /// Bytes consumed.
    public private(set) var byteCount: UInt64 = 0
    /// The streams of the program map, in table order (empty until it is read).
    public private(set) var streams: [ProgramTables.Stream] = []

    /// A demuxer at the start of a stream; a PES packet over `maximumPESBytes` is refused.
    public init(maximumPESBytes: Int = TSDemuxer.defaultMaximumPESBytes) {
        self.maximumPESBytes = maximumPESBytes
    }

    /// Feeds the next bytes; returns the PES packets they completed, in stream order.
    /// - Throws: `malformed-transport-stream`.
    /// - Complexity: O(n).
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(MediaError) -> [PESPacket] {
        if let failure { throw failure }
        let cut = framer.cut(bytes)
        cut.completed?.withUnsafeBytes { read($0) }
        for start in stride(from: cut.whole.lowerBound, to: cut.whole.upperBound, by: TSPacket.size) where failure == nil {
            read(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + TSPacket.size)]))
        }
        if let failure { throw failure }
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    /// Feeds the next bytes.
    /// - Throws: `malformed-transport-stream`.
    public mutating func consume(_ bytes: [UInt8]) throws(MediaError) -> [PESPacket] {
        var demuxer = self
        self = TSDemuxer(maximumPESBytes: maximumPESBytes)   // the buffers stay uniquely the local's: no copy on write
        let result = bytes.withUnsafeBytes { buffer -> Result<[PESPacket], MediaError> in
            do throws(MediaError) { return .success(try demuxer.consume(buffer)) } catch { return .failure(error) }
        }
        self = demuxer
        return try result.get()
    }

    /// Ends the stream: the open PES packets, each complete.
    /// - Throws: `malformed-transport-stream` when the stream ends inside a packet or a PES
    ///   packet shorter than its `PES_packet_length`.
    public mutating func finish() throws(MediaError) -> [PESPacket] {
        if let failure { throw failure }
        guard framer.pendingCount == 0 else {
            throw fail("The stream ends \(framer.pendingCount) bytes into a transport packet", at: byteCount)
        }
        let pending = open.indices.filter { open[$0] != nil }.sorted { open[$0]!.offset < open[$1]!.offset }
        for slot in pending { close(slot) }
        if let failure { throw failure }
        defer { completed.removeAll() }
        return completed
    }

    // MARK: Packets

    private mutating func read(_ bytes: UnsafeRawBufferPointer) {
        let offset = byteCount
        byteCount += UInt64(TSPacket.size)
        let packet: TSPacket
        do { packet = try TSPacket(bytes) } catch {
            failure = fail("The transport packet is unreadable (\(error))", at: offset)
            return
        }
        guard packet.hasPayload, !packet.header.transportErrorIndicator else { return }
        let pid = packet.pid
        let payload = packet.payload(of: bytes)
        let unitStart = packet.header.payloadUnitStartIndicator
        if pid == TSConstants.patPID || pid == mapPID {
            var complete: [[UInt8]] = []
            sections.consume(pid: pid, payload: payload, unitStart: unitStart) { section in
                if case .success(let section) = section { complete.append(section) }
            }
            for section in complete { table(section) }
            return
        }
        let slot = Int(slots[pid] ?? -1)
        guard slot >= 0 else { return }
        if unitStart {
            close(slot)
            open[slot] = Open(bytes: Array(payload), offset: offset, isRandomAccess: packet.adaptationField?.randomAccessIndicator ?? false)
        } else if open[slot] != nil {
            guard open[slot]!.bytes.count + payload.count <= maximumPESBytes else {
                failure = fail("PID \(pid)'s PES packet grows past \(maximumPESBytes) bytes", at: open[slot]!.offset)
                return
            }
            open[slot]!.bytes.append(contentsOf: payload)
        } else {
            return
        }
        // A PES packet whose length is given is complete as soon as it is all here.
        let count = open[slot]!.bytes.count
        if count >= 6 {
            let length = Int(open[slot]!.bytes[4]) << 8 | Int(open[slot]!.bytes[5])
            if length > 0, count >= 6 + length { close(slot) }
        }
    }

    private mutating func table(_ section: [UInt8]) {
        guard section.count >= 4, MPEG2CRC32.checksum(section) == 0 else { return }
        if let programs = ProgramTables.programAssociation(section), let first = programs.first {
            mapPID = first.mapPID
        } else if let map = ProgramTables.programMap(section), map.streams != streams {
            // A new map: the packets open on PIDs it keeps stay open, the others go.
            var kept: [Open?] = Array(repeating: nil, count: map.streams.count)
            for (index, stream) in map.streams.enumerated() {
                if let slot = slots[stream.pid], slot >= 0 { kept[index] = open[Int(slot)] }
            }
            for stream in streams { slots[stream.pid, default: -1] = -1 }
            for (index, stream) in map.streams.enumerated() { slots[stream.pid, default: -1] = Int16(index) }
            streams = map.streams
            open = kept
        }
    }

    /// Completes the open PES packet of the stream at `slot`.
    private mutating func close(_ slot: Int) {
        guard let pending = open[slot] else { return }
        open[slot] = nil
        guard failure == nil else { return }
        let pid = streams[slot].pid, type = streams[slot].type
        let packet: PESPacket? = pending.bytes.withUnsafeBytes { bytes in
            guard let header = PESHeader(bytes), bytes.count >= header.dataOffset, header.timestampsFit(in: bytes.count) else { return nil }
            let length = Int(bytes[4]) << 8 | Int(bytes[5])
            let end = length > 0 ? 6 + length : bytes.count
            guard end <= bytes.count, end >= header.dataOffset else { return nil }
            var pts: UInt64?
            var dts: UInt64?
            if let at = header.ptsOffset {
                guard let value = MPEGTimestamp.readCheckedField(bytes, at: at, prefix: header.ptsDTSFlags == 0b11 ? 0b0011 : 0b0010) else { return nil }
                pts = value
            }
            if let at = header.dtsOffset {
                guard let value = MPEGTimestamp.readCheckedField(bytes, at: at, prefix: 0b0001) else { return nil }
                dts = value
            }
            return PESPacket(pid: pid, streamType: type, pts: pts, dts: dts, isRandomAccess: pending.isRandomAccess,
                             data: Array(bytes[header.dataOffset..<end]), byteOffset: pending.offset)
        }
        guard let packet else {
            failure = fail("PID \(pid)'s PES packet has a header that does not parse or a length its bytes do not reach", at: pending.offset)
            return
        }
        completed.append(packet)
    }

    private func fail(_ what: String, at offset: UInt64) -> MediaError {
        MediaError(.malformedTransportStream, "\(what) at byte \(offset).")
    }
}
