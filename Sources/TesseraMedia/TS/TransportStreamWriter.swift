/// Writes one MPEG-TS program (ISO/IEC 13818-1) from MP4 samples given in decode order across
/// its tracks: a PAT and a PMT (one program, each track's stream type, ISO 639 language and
/// AC-3/E-AC-3 registration descriptors) at the start, before every video random access point
/// and at least every half second; each video sample one PES packet (PTS, and DTS when it
/// differs), audio frames gathered into PES packets of up to `audioPayloadBytes`; the PCR on the
/// first video track in the first packet of each of its PES packets, and in a packet of its own
/// (adaptation field only, on the first video track's PID, else the first track's) wherever
/// 40 ms would pass without one,
/// `pcrDelay` before the DTS; random access indicators on sync samples; continuity counters per
/// PID; the last packet of each PES filled with adaptation-field stuffing. Timestamps are the
/// caller's 90 kHz times, taken modulo 2^33. The bytes accumulate in `output` for the caller to
/// take.
public struct TransportStreamWriter: Sendable {
    /// One track: its sample descriptions' media (a sample names one by index) and language.
    public struct Track: Sendable {
        public let descriptions: [MP4Track.Media]
        /// ISO 639-2 code; `und` writes no language descriptor.
        public let language: String

        /// A track of `descriptions` in `language`.
        public init(descriptions: [MP4Track.Media], language: String) {
            self.descriptions = descriptions
            self.language = language
        }
    }

    /// The most audio bytes in one PES packet (ffmpeg's default, about 0.2 s of 128 kb/s AAC).
    public static let audioPayloadBytes = 2930
    /// How far before a PES packet's DTS its PCR is (90 kHz).
    public static let pcrDelay: Int64 = 63_000
    /// The most tracks: the program map is one packet (17 bytes a track at most).
    public static let maximumTracks = 9
    static let pmtPID: UInt16 = 0x1000
    static let firstPID: UInt16 = 0x100

    private struct Stream: Sendable {
        let pid: UInt16
        let formats: [TSElementaryFormat]
        let language: String
        /// Audio frames waiting for their PES packet: the first's PTS, and the bytes.
        var pending: (pts: Int64, bytes: [UInt8])?
    }

    private var streams: [Stream]
    private let pcrStream: Int
    /// Each PID's next continuity counter.
    private var continuity: [UInt16: UInt8] = [:]
    private var lastTables: Int64?
    /// The last PCR written (90 kHz).
    private var lastPCR: Int64?
    /// The packets written and not yet taken.
    public private(set) var output: [UInt8] = []

    /// A writer of `tracks`, each on its own PID from 0x100.
    /// - Throws: `unsupported-stream` for a track MPEG-TS does not carry here (`TSElementaryFormat`),
    ///   or a track whose sample descriptions change its stream type; `malformed-boxes` for a
    ///   copied entry whose configuration does not read.
    public init(tracks: [Track]) throws(MediaError) {
        guard (1...Self.maximumTracks).contains(tracks.count) else {
            throw MediaError(.unsupportedStream, "A transport stream of \(tracks.count) tracks; its program map holds 1 to \(Self.maximumTracks).")
        }
        var streams: [Stream] = []
        for (index, track) in tracks.enumerated() {
            var formats: [TSElementaryFormat] = []
            for media in track.descriptions { formats.append(try TSElementaryFormat(media)) }
            guard let first = formats.first, formats.allSatisfy({ $0.streamType == first.streamType }) else {
                throw MediaError(.unsupportedStream, "Track \(index + 1) changes its stream type between sample descriptions.")
            }
            streams.append(Stream(pid: Self.firstPID + UInt16(index), formats: formats, language: track.language))
        }
        self.streams = streams
        pcrStream = streams.firstIndex { $0.formats[0].isVideo } ?? 0
    }

    /// Takes the bytes written so far.
    public mutating func take() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    /// Writes the next sample in decode order: `data` of track `track`'s sample description
    /// `description`, decoded at `decodeTime` and shown at `presentationTime` (90 kHz).
    /// - Throws: `malformed-elementary-stream` for a video sample whose NAL unit lengths do not
    ///   add up to its size.
    public mutating func write(_ data: [UInt8], track: Int, description: Int, decodeTime: Int64, presentationTime: Int64, isSync: Bool) throws(MediaError) {
        let format = streams[track].formats[description]
        let video = format.isVideo
        if lastTables == nil || (video && isSync) || decodeTime - (lastTables ?? 0) >= 45_000 {
            writeTables()
            lastTables = decodeTime
        }
        // The program clock: in the PCR track's video PES packets, else on its own when due.
        let clock = decodeTime - Self.pcrDelay
        let carriesClock = track == pcrStream && video && lastPCR.map { clock > $0 } ?? true
        if !carriesClock, lastPCR.map({ clock - $0 >= 3_600 }) ?? true { writeClockReference(clock) }
        switch format.payload {
        case .annexB:
            let bytes = try Self.annexB(data, format: format.payload, isSync: isSync)
            writePES(track: track, bytes: bytes, pts: presentationTime, dts: decodeTime, pcr: carriesClock ? clock : nil, randomAccess: isSync)
        case .adts(let profile, let index, let channels):
            gather(Self.adtsHeader(profile: profile, frequencyIndex: index, channels: channels, frameLength: data.count + 7) + data, track: track, pts: presentationTime)
        case .whole:
            gather(data, track: track, pts: presentationTime)
        }
    }

    /// Writes the audio frames still gathered.
    public mutating func finish() {
        for index in streams.indices { flushAudio(index) }
    }

    // MARK: Audio

    private mutating func gather(_ frame: [UInt8], track: Int, pts: Int64) {
        if let pending = streams[track].pending, pending.bytes.count + frame.count > Self.audioPayloadBytes { flushAudio(track) }
        if streams[track].pending == nil {
            streams[track].pending = (pts, frame)
        } else {
            streams[track].pending!.bytes += frame
        }
    }

    private mutating func flushAudio(_ track: Int) {
        guard let pending = streams[track].pending else { return }
        streams[track].pending = nil
        writePES(track: track, bytes: pending.bytes, pts: pending.pts, dts: pending.pts, pcr: nil, randomAccess: true)
    }

    // MARK: Samples

    /// A sample's NAL units with start codes: the delimiter first, the parameter sets before a
    /// random access picture that has none of its own.
    static func annexB(_ data: [UInt8], format: TSElementaryFormat.Payload, isSync: Bool) throws(MediaError) -> [UInt8] {
        guard case .annexB(let lengthSize, let delimiter, let parameterSets, let types, let hevc) = format else { return data }
        var units: [Range<Int>] = []
        var offset = 0
        var carriesSets = false
        while offset < data.count {
            guard data.count - offset >= lengthSize else { throw MediaError(.malformedElementaryStream, "A video sample ends inside a NAL unit length.") }
            var length = 0
            for index in 0..<lengthSize { length = length << 8 | Int(data[offset + index]) }
            offset += lengthSize
            guard length > 0, length <= data.count - offset else {
                throw MediaError(.malformedElementaryStream, "A video sample's NAL unit of \(length) bytes runs past its \(data.count) bytes.")
            }
            let type = hevc ? (data[offset] >> 1) & 0x3F : data[offset] & 0x1F
            if types.contains(type) { carriesSets = true }
            // The sample's own delimiter (if any) is replaced by ours, written first.
            if type != (hevc ? 35 : 9) { units.append(offset..<(offset + length)) }
            offset += length
        }
        let startCode: [UInt8] = [0, 0, 0, 1]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + 64 + (isSync && !carriesSets ? parameterSets.reduce(0) { $0 + $1.count + 4 } : 0))
        bytes += startCode
        bytes += delimiter
        if isSync, !carriesSets {
            for set in parameterSets {
                bytes += startCode
                bytes += set
            }
        }
        for unit in units {
            bytes += startCode
            bytes += data[unit]
        }
        return bytes
    }

    /// The 7-byte ADTS header (MPEG-4, no CRC) of a frame of `frameLength` bytes, header included.
    static func adtsHeader(profile: UInt8, frequencyIndex: UInt8, channels: UInt8, frameLength: Int) -> [UInt8] {
        [0xFF, 0xF1, profile << 6 | frequencyIndex << 2 | channels >> 2,
         (channels & 3) << 6 | UInt8((frameLength >> 11) & 3), UInt8((frameLength >> 3) & 0xFF), UInt8(frameLength & 7) << 5 | 0x1F, 0xFC]
    }

    // MARK: Packets

    /// One PES packet of `bytes` on `track`'s PID, cut into transport packets.
    private mutating func writePES(track: Int, bytes: [UInt8], pts: Int64, dts: Int64, pcr: Int64?, randomAccess: Bool) {
        let format = streams[track].formats[0]
        let hasDTS = dts != pts
        var header: [UInt8] = [0, 0, 1, format.streamID]
        let length = bytes.count + (hasDTS ? 13 : 8)
        let packetLength = format.isVideo || length > 0xFFFF ? 0 : length   // 0: unbounded (video)
        header += [UInt8(packetLength >> 8), UInt8(packetLength & 0xFF), 0x84, hasDTS ? 0xC0 : 0x80, hasDTS ? 10 : 5]
        header += Self.timestamp(pts, prefix: hasDTS ? 0x3 : 0x2)
        if hasDTS { header += Self.timestamp(dts, prefix: 0x1) }
        if let pcr { lastPCR = pcr }
        writePackets(pid: streams[track].pid, payload: header + bytes, pcr: pcr, randomAccess: randomAccess)
    }

    /// A 33-bit timestamp in the PES header's five bytes, after its 4-bit `prefix`.
    static func timestamp(_ time: Int64, prefix: UInt8) -> [UInt8] {
        let value = UInt64(bitPattern: time) & MPEGTimestamp.mask
        return [prefix << 4 | UInt8((value >> 29) & 0x0E) | 1, UInt8((value >> 22) & 0xFF), UInt8((value >> 14) & 0xFE) | 1,
                UInt8((value >> 7) & 0xFF), UInt8((value << 1) & 0xFE) | 1]
    }

    /// `payload` in transport packets on `pid`, the first starting a unit (with the PCR and the
    /// random access indicator when given), the last stuffed to 188 bytes.
    private mutating func writePackets(pid: UInt16, payload: [UInt8], pcr: Int64?, randomAccess: Bool) {
        var counter = continuity[pid] ?? 0
        defer { continuity[pid] = counter }
        var offset = 0
        var first = true
        output.reserveCapacity(output.count + (payload.count / 184 + 2) * 188)
        while offset < payload.count {
            var adaptation: [UInt8] = []
            if first, pcr != nil || randomAccess {
                var fields: [UInt8] = [(randomAccess ? 0x40 : 0) | (pcr != nil ? 0x10 : 0)]
                if let pcr { fields += Self.clockReference(pcr) }
                adaptation = [UInt8(fields.count)] + fields
            }
            let room = 184 - adaptation.count
            let remaining = payload.count - offset
            if remaining < room {
                // Stuffing: the adaptation field grows to fill the packet.
                let stuffing = room - remaining
                if adaptation.isEmpty {
                    adaptation = stuffing == 1 ? [0] : [UInt8(stuffing - 1), 0] + Array(repeating: 0xFF, count: stuffing - 2)
                } else {
                    adaptation[0] += UInt8(stuffing)
                    adaptation += Array(repeating: 0xFF, count: stuffing)
                }
            }
            let take = 184 - adaptation.count
            output += [0x47, (first ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF), (adaptation.isEmpty ? 0x10 : 0x30) | counter]
            output += adaptation
            output += payload[offset..<(offset + take)]
            counter = (counter + 1) & 0x0F
            offset += take
            first = false
        }
    }

    /// A packet of the PCR track's PID holding only an adaptation field with the PCR `clock` (its
    /// continuity counter not incremented: it carries no payload).
    private mutating func writeClockReference(_ clock: Int64) {
        if let last = lastPCR, clock <= last { return }
        lastPCR = clock
        let pid = streams[pcrStream].pid
        let counter = ((continuity[pid] ?? 0) + 15) & 0x0F   // the last payload packet's
        output += [0x47, UInt8(pid >> 8), UInt8(pid & 0xFF), 0x20 | counter, 183, 0x10] + Self.clockReference(clock)
        output += Array(repeating: 0xFF, count: 188 - 12)
    }

    /// A PCR's six bytes: the 33-bit base (90 kHz), reserved bits, a zero extension.
    static func clockReference(_ clock: Int64) -> [UInt8] {
        let base = UInt64(bitPattern: max(0, clock)) & MPEGTimestamp.mask
        return [UInt8(base >> 25), UInt8((base >> 17) & 0xFF), UInt8((base >> 9) & 0xFF), UInt8((base >> 1) & 0xFF), UInt8((base & 1) << 7) | 0x7E, 0]
    }

    /// The PAT and the PMT, each one packet.
    private mutating func writeTables() {
        let pat = Self.section(table: 0x00, id: 0x0001, body: [0x00, 0x01, 0xE0 | UInt8(Self.pmtPID >> 8), UInt8(Self.pmtPID & 0xFF)])
        var body: [UInt8] = [0xE0 | UInt8(streams[pcrStream].pid >> 8), UInt8(streams[pcrStream].pid & 0xFF), 0xF0, 0x00]
        for stream in streams {
            var descriptors: [UInt8] = []
            if let registration = stream.formats[0].registration { descriptors += [0x05, 4] + registration }
            if stream.language != "und", stream.language.utf8.count == 3 { descriptors += [0x0A, 4] + Array(stream.language.utf8) + [0] }
            body += [stream.formats[0].streamType.rawValue, 0xE0 | UInt8(stream.pid >> 8), UInt8(stream.pid & 0xFF),
                     0xF0 | UInt8(descriptors.count >> 8), UInt8(descriptors.count & 0xFF)] + descriptors
        }
        let pmt = Self.section(table: 0x02, id: 0x0001, body: body)
        writeTable(pid: 0, section: pat)
        writeTable(pid: Self.pmtPID, section: pmt)
    }

    /// A PSI section: table ID, syntax and length, `id`, version 0 current, section 0 of 0,
    /// `body`, CRC-32.
    static func section(table: UInt8, id: UInt16, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        var section: [UInt8] = [table, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), UInt8(id >> 8), UInt8(id & 0xFF), 0xC1, 0, 0] + body
        let crc = MPEG2CRC32.checksum(section)
        section += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        return section
    }

    /// One packet holding `section` after its pointer field, the rest 0xFF.
    private mutating func writeTable(pid: UInt16, section: [UInt8]) {
        precondition(section.count <= 183, "a table fits one packet (at most \(Self.maximumTracks) tracks)")
        let counter = continuity[pid] ?? 0
        output += [0x47, 0x40 | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10 | counter, 0x00] + section
        output += Array(repeating: 0xFF, count: 183 - section.count)
        continuity[pid] = (counter + 1) & 0x0F
    }
}
