/// One track of an MP4 file being written: its media (the sources of its sample entries: one,
/// or a further one each time the codec parameters change), how players present it (language,
/// name, enabled, alternate group), its timescale, and its samples in decode order — each
/// sample's size, decode time, composition offset, sample description and whether it is a sync
/// sample. Times are in the track's timescale on the movie's timeline: presentation
/// time 0 is the movie's start (decode times before it are allowed: B-frames decode early).
public struct MP4Track: Sendable {
    /// What the track carries, with what its sample entry needs.
    public enum Media: Sendable, Equatable, Codable {
        /// H.264 video (`avc1` with `avcC`).
        case avc(AVCDecoderConfiguration)
        /// H.265 video (`hvc1` with `hvcC`).
        case hevc(HEVCDecoderConfiguration)
        /// AAC audio (`mp4a` with `esds`).
        case aac(AACConfiguration)
        /// AC-3 audio (`ac-3` with `dac3`).
        case ac3(AC3Header.Configuration)
        /// E-AC-3 audio (`ec-3` with `dec3`).
        case eac3(EAC3Header.Configuration)
        /// MPEG-1/2 audio, MP3 or MP2 (`mp4a` with an `esds` of object type 0x6B or 0x69).
        case mpegAudio(MPEGAudioHeader.Configuration)
        /// Subtitles as 3GPP timed text (`tx3g`, handler `sbtl`).
        case timedText
        /// A fragmented MP4 source's sample entry, copied.
        case copied(CopiedSampleEntry)
    }

    /// One sample as the table holds it.
    public struct Sample: Sendable, Equatable {
        /// Bytes.
        public let size: UInt32
        /// Decode time on the movie timeline, in the track's timescale.
        public let decodeTime: Int64
        /// Presentation time minus decode time.
        public let compositionOffset: Int32
        /// Whether decoding can start here.
        public let isSync: Bool
        /// Its sample description: an index into `descriptions`.
        public let description: UInt16

        /// A sample of description `description`.
        public init(size: UInt32, decodeTime: Int64, compositionOffset: Int32, isSync: Bool, description: UInt16 = 0) {
            self.size = size
            self.decodeTime = decodeTime
            self.compositionOffset = compositionOffset
            self.isSync = isSync
            self.description = description
        }
    }

    /// The first sample description's media.
    public var media: Media { descriptions[0] }
    /// Every sample description's media, in the order they were added.
    public private(set) var descriptions: [Media]
    /// Ticks per second of its times.
    public let timescale: UInt32
    /// ISO 639-2/T code (`mdhd`): three lower-case letters; `und` when unknown.
    public var language = "und"
    /// A name for players (`hdlr`'s name).
    public var name: String?
    /// Whether players play it unless told otherwise (`tkhd` track_enabled).
    public var isEnabled = true
    /// Tracks of one group are alternatives to each other (`tkhd` alternate_group; 0: none).
    public var alternateGroup: UInt16 = 0
    /// The samples, in decode order.
    public private(set) var samples: [Sample] = []
    /// The time after the last sample ends (its duration is the one before it when not set).
    public var endTime: Int64?

    /// An empty track of `media` timed in `timescale` ticks per second.
    public init(media: Media, timescale: UInt32) {
        precondition(timescale > 0, "a timescale counts ticks per second")
        descriptions = [media]
        self.timescale = timescale
    }

    /// The index of `media`'s sample description, added when it is new (at most 65,535).
    /// - Throws: `parameters-changed` past that many.
    public mutating func description(of media: Media) throws(MediaError) -> UInt16 {
        if let index = descriptions.firstIndex(of: media) { return UInt16(index) }
        guard descriptions.count < Int(UInt16.max) else {
            throw MediaError(.parametersChanged, "A track's codec parameters change more than 65,535 times.")
        }
        descriptions.append(media)
        return UInt16(descriptions.count - 1)
    }

    /// Appends the next sample in decode order.
    /// - Throws: `malformed-elementary-stream` when its decode time does not increase.
    public mutating func append(_ sample: Sample) throws(MediaError) {
        precondition(Int(sample.description) < descriptions.count, "a sample's description is one of the track's")
        if let last = samples.last, sample.decodeTime <= last.decodeTime {
            throw MediaError(.malformedElementaryStream,
                             "A sample's decode time \(sample.decodeTime) does not follow \(last.decodeTime) (timescale \(timescale)).")
        }
        samples.append(sample)
    }

    /// The duration of sample `index`: to the next sample's decode time; the last's to
    /// `endTime`, else the duration before it.
    func duration(of index: Int) -> Int64 {
        if index + 1 < samples.count { return samples[index + 1].decodeTime - samples[index].decodeTime }
        if let endTime, endTime > samples[index].decodeTime { return endTime - samples[index].decodeTime }
        return index > 0 ? samples[index].decodeTime - samples[index - 1].decodeTime : 0
    }

    /// Where its presentation starts and ends on the movie timeline (track ticks), nil when empty.
    var presentation: (start: Int64, end: Int64)? {
        guard !samples.isEmpty else { return nil }
        var start = Int64.max, end = Int64.min
        for (index, sample) in samples.enumerated() {
            let time = sample.decodeTime + Int64(sample.compositionOffset)
            start = min(start, time)
            end = max(end, time + duration(of: index))
        }
        return (start, end)
    }
}
