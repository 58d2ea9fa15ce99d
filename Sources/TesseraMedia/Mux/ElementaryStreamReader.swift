/// The access units of the H.264 and AAC streams of transport stream segments, read segment by
/// segment in order: each segment demuxed on its own (a segment is a whole transport stream),
/// its PES packets through one `AVCReader` and one `ADTSReader` for the whole sequence, so
/// parameter sets and frames straddling packets carry over. Each unit comes with its kind, its
/// 90 kHz duration when known (an audio frame's) and the media in force for it (a further
/// sample description when it changes). Shared by every muxer.
public struct ElementaryStreamReader: Sendable {
    /// The kinds of elementary stream read.
    public enum Kind: Hashable, Sendable {
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
    }

    /// The kinds taken; the others are skipped.
    public let kinds: Set<Kind>
    private var video = AVCReader()
    private var audio = ADTSReader()

    /// A reader taking `kinds`.
    public init(kinds: Set<Kind> = [.video, .audio]) { self.kinds = kinds }

    /// The units of the next segment, in stream order.
    /// - Throws: `malformed-transport-stream`, `malformed-elementary-stream`. Codec parameters
    ///   that change come with the units after the change (their `media`).
    public mutating func read(segment bytes: [UInt8]) throws(MediaError) -> [Unit] {
        var demuxer = TSDemuxer()
        var units: [Unit] = []
        for packet in try demuxer.consume(bytes) + demuxer.finish() {
            switch packet.streamType {
            case .h264 where kinds.contains(.video):
                let unit = try video.consume(packet)
                units.append(Unit(kind: .video, unit: unit, duration: nil, media: .avc(video.configuration!)))
            case .aacADTS where kinds.contains(.audio):
                let frames = try audio.consume(packet)
                guard let header = audio.configuration else { continue }
                let duration = Int64(header.samplesPerFrame) * Int64(MPEGTimestamp.ticksPerSecond) / Int64(header.sampleRate)
                units += frames.map { Unit(kind: .audio, unit: $0, duration: duration, media: .aac(header)) }
            default:
                continue
            }
        }
        return units
    }
}
