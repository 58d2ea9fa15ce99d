/// The access units of the video (H.264, H.265) and audio (AAC, AC-3, E-AC-3, MPEG audio)
/// streams of transport stream segments, read segment by segment in order: each segment demuxed
/// on its own (a segment is a whole transport stream), its PES packets through one reader per
/// codec for the whole sequence, so parameter sets and frames straddling packets carry over. Each unit comes with its kind, its
/// 90 kHz duration when known (an audio frame's) and the media in force for it (a further
/// sample description when it changes). Shared by every muxer. Its state codes (`Codable`): the
/// parameter sets, a frame split across packets and the audio clock written down mid-stream and
/// read back read on as the original would (a streamed mux keeps it in its checkpoint).
public struct ElementaryStreamReader: Sendable, Codable {
    /// The kinds of elementary stream read.
    public enum Kind: Hashable, Sendable, Codable {
        case video, audio
    }

    /// An access unit and what its track needs.
    public struct Unit: Sendable {
        public let kind: Kind
        public let unit: AccessUnit
        /// Its length on the 90 kHz clock, when the stream says it (AAC frames).
        public let duration: Int64?
        /// The sample entry's source of its track.
        public let media: MP4Track.Media
        /// Ticks (90 kHz) at its start that are decoded but not shown: an encoder's priming
        /// before the source's edit list starts presenting.
        public var hidden: Int64 = 0
        /// Where its bytes start in the fragment read (fragmented MP4 samples, which lie whole in
        /// its `mdat`), so a muxer can copy them out later without reading the fragment again;
        /// nil for transport stream units (demuxed from PES packets).
        public var offset: Int?

        /// A unit of `kind`: `unit` lasting `duration` (nil: to the next), of `media`, `hidden`
        /// ticks at its start not shown, its bytes at `offset` of its fragment when known.
        public init(kind: Kind, unit: AccessUnit, duration: Int64?, media: MP4Track.Media, hidden: Int64 = 0, offset: Int? = nil) {
            self.kind = kind
            self.unit = unit
            self.duration = duration
            self.media = media
            self.hidden = hidden
            self.offset = offset
        }
    }

    /// The kinds taken; the others are skipped.
    public let kinds: Set<Kind>
    /// Whether pictures and fragment samples come with their bytes; false: their sizes and
    /// timing alone (a muxer's first pass). Audio frames always bring theirs (they are small).
    public var keepsBytes = true
    private var avc = AVCReader()
    private var hevc = HEVCReader()
    private var aac = ADTSReader()
    private var ac3 = AudioFrameReader<AC3Header>()
    private var eac3 = AudioFrameReader<EAC3Header>()
    private var mpegAudio = AudioFrameReader<MPEGAudioHeader>()

    /// The stream types read as video, and as audio.
    static let videoTypes: Set<TSStreamType> = [.h264, .hevc]
    static let audioTypes: Set<TSStreamType> = [.aacADTS, .ac3, .eac3, .mpeg1Audio, .mpeg2Audio]

    /// A reader taking `kinds`.
    public init(kinds: Set<Kind> = [.video, .audio]) { self.kinds = kinds }

    /// The samples of a fragmented MP4 media segment whose tracks `initialization` declares: each
    /// visual and audio track's (the first of each kind), timed on the 90 kHz clock from its
    /// `tfdt` and durations, its sample entry copied.
    /// - Throws: `malformed-boxes`.
    public func read(fragment bytes: [UInt8], initialization: FragmentedMP4Init) throws(MediaError) -> [Unit] {
        let video = initialization.tracks.first { $0.handler == "vide" }
        let audio = initialization.tracks.first { $0.handler == "soun" }
        var units: [Unit] = []
        for sample in try FragmentSamples.samples(of: bytes, initialization: initialization) {
            let kind: Kind
            let track: FragmentedMP4Init.Track
            if let video, sample.track == video.id, kinds.contains(.video) {
                (kind, track) = (.video, video)
            } else if let audio, sample.track == audio.id, kinds.contains(.audio) {
                (kind, track) = (.audio, audio)
            } else {
                continue
            }
            let scale = UInt64(track.timescale)
            let decode = Self.clock(sample.decodeTime, scale)
            // Presentation = composition - the edit list's media time (ISO/IEC 14496-12 §8.6.6).
            let shown = Int64(sample.compositionOffset) - track.mediaTime
            let presented = Int64(decode) + Self.signedClock(shown, scale)
            let (decodeTime, presentationTime) = (decode & MPEGTimestamp.mask, UInt64(bitPattern: presented) & MPEGTimestamp.mask)
            let isSync = kind == .audio || sample.isSync
            let unit = keepsBytes ? AccessUnit(decodeTime: decodeTime, presentationTime: presentationTime, isSync: isSync, data: Array(bytes[sample.range]))
                : AccessUnit(decodeTime: decodeTime, presentationTime: presentationTime, isSync: isSync, size: sample.range.count)
            let before = Int64(sample.decodeTime) + shown   // where it is shown on the track's own timeline, 0 the edit's start
            units.append(Unit(kind: kind, unit: unit, duration: Int64(Self.clock(UInt64(sample.duration), scale)), media: .copied(CopiedSampleEntry(track)),
                              hidden: before < 0 ? Self.signedClock(-before, scale) : 0, offset: sample.range.lowerBound))
        }
        return units
    }

    /// `ticks` of a `scale` clock on the 90 kHz clock, rounded down, without overflow.
    static func clock(_ ticks: UInt64, _ scale: UInt64) -> UInt64 {
        ticks / scale * MPEGTimestamp.ticksPerSecond + (ticks % scale) * MPEGTimestamp.ticksPerSecond / scale
    }

    /// A signed `ticks` of a `scale` clock on the 90 kHz clock.
    static func signedClock(_ ticks: Int64, _ scale: UInt64) -> Int64 {
        ticks < 0 ? -Int64(clock(UInt64(-ticks), scale)) : Int64(clock(UInt64(ticks), scale))
    }

    /// The units of the next segment, in stream order: of its first video and its first audio
    /// stream in the program map.
    /// - Throws: `malformed-transport-stream`, `malformed-elementary-stream`,
    ///   `unsupported-stream`. Codec parameters that change come with the units after the change
    ///   (their `media`).
    public mutating func read(segment bytes: [UInt8]) throws(MediaError) -> [Unit] {
        var demuxer = TSDemuxer()
        var units: [Unit] = []
        // Demuxed a slice at a time, each slice's PES packets read into units before the next:
        // a segment's payloads are never held beside its units (4 MiB less at 8 Mbit/s).
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Self.demuxSlice)
            let packets = bytes[start..<end].withUnsafeBytes { buffer -> Result<[PESPacket], MediaError> in
                do throws(MediaError) { return .success(try demuxer.consume(buffer)) } catch { return .failure(error) }
            }
            try read(try packets.get(), of: demuxer, into: &units)
            start = end
        }
        try read(try demuxer.finish(), of: demuxer, into: &units)
        return units
    }

    /// Bytes of a segment demuxed at once: 1,024 transport packets.
    static let demuxSlice = 1024 * TSPacket.size

    /// Reads `packets` of the streams chosen from `demuxer`'s program map into `units`.
    private mutating func read(_ packets: [PESPacket], of demuxer: TSDemuxer, into units: inout [Unit]) throws(MediaError) {
        guard !packets.isEmpty else { return }
        // One stream of each kind: the program map's first (a second audio language on another
        // PID is not interleaved into the first's frames). Chosen per segment, from the map as it
        // stands: after a discontinuity another encoder may use other PIDs.
        let videoPID = kinds.contains(.video) ? demuxer.streams.first { Self.videoTypes.contains($0.type) }?.pid : nil
        let audioPID = kinds.contains(.audio) ? demuxer.streams.first { Self.audioTypes.contains($0.type) }?.pid : nil
        for packet in packets where packet.pid == videoPID || packet.pid == audioPID {
            switch packet.streamType {
            case .h264:
                let unit = try avc.consume(packet, keepsBytes: keepsBytes)
                units.append(Unit(kind: .video, unit: unit, duration: nil, media: .avc(avc.configuration!)))
            case .hevc:
                let unit = try hevc.consume(packet, keepsBytes: keepsBytes)
                units.append(Unit(kind: .video, unit: unit, duration: nil, media: .hevc(hevc.configuration!)))
            case .aacADTS: units += try Self.audio(packet, &aac, MP4Track.Media.aac)
            case .ac3: units += try Self.audio(packet, &ac3, MP4Track.Media.ac3)
            case .eac3: units += try Self.audio(packet, &eac3, MP4Track.Media.eac3)
            default: units += try Self.audio(packet, &mpegAudio, MP4Track.Media.mpegAudio)
            }
        }
    }

    /// The audio frames `packet` completes through `reader`, each timed for its frame's samples.
    private static func audio<Header>(_ packet: PESPacket, _ reader: inout AudioFrameReader<Header>,
                                      _ media: (Header.Configuration) -> MP4Track.Media) throws(MediaError) -> [Unit] {
        let frames = try reader.consume(packet)
        guard let configuration = reader.configuration, let header = reader.header else { return [] }
        let duration = Int64(header.sampleCount) * Int64(MPEGTimestamp.ticksPerSecond) / Int64(header.sampleRate)
        return frames.map { Unit(kind: .audio, unit: $0, duration: duration, media: media(configuration)) }
    }
}
