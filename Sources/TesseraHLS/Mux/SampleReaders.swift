import TesseraMedia

/// The access units of one source's segments, read in order: each segment demuxed on its own
/// (a segment is a whole transport stream), its H.264 and AAC PES packets through one
/// `AVCReader` and one `ADTSReader` for the whole source, so parameter sets and frames that
/// straddle packets carry over. A change of codec parameters is refused with `unsupported`
/// rather than written under the first ones.
struct SampleReaders {
    /// An access unit and its 90 kHz duration when known (an audio frame's).
    struct TimedUnit {
        let unit: AccessUnit
        let duration: Int64?
    }

    let kinds: Set<MovieMux.Kind>
    private var video = AVCReader()
    private var audio = ADTSReader()

    init(kinds: Set<MovieMux.Kind>) { self.kinds = kinds }

    /// Calls `body` with each access unit of `segment` (source `source`) of a kind taken, its
    /// track key and its track's media.
    /// - Throws: `malformed-media`, `unsupported`, and what `body` throws.
    mutating func each(_ segment: MovieMux.Segment, of source: Int,
                       _ body: (MovieMux.TrackKey, TimedUnit, MP4Track.Media) throws(HLSError) -> Void) throws(HLSError) {
        let bytes = try MovieMux.read(segment)
        var demuxer = TSDemuxer()
        let packets = try MovieMux.media(at: segment.path) { () throws(MediaError) in try demuxer.consume(bytes) + demuxer.finish() }
        for packet in packets {
            switch packet.streamType {
            case .h264 where kinds.contains(.video):
                let unit = try MovieMux.media(at: segment.path) { () throws(MediaError) in try video.consume(packet) }
                if video.configurationChanged {
                    throw HLSError(.unsupported, "\(segment.path): the H.264 parameters change (a new resolution or profile); one MP4 track under both is not written yet.")
                }
                try body(.init(source: source, kind: .video), TimedUnit(unit: unit, duration: nil), .avc(video.configuration!))
            case .aacADTS where kinds.contains(.audio):
                let units = try MovieMux.media(at: segment.path) { () throws(MediaError) in try audio.consume(packet) }
                if audio.configurationChanged {
                    throw HLSError(.unsupported, "\(segment.path): the AAC configuration changes (another rate or channel layout); one MP4 track under both is not written yet.")
                }
                guard let header = audio.configuration else { continue }
                let duration = Int64(header.sampleCount) * 90000 / Int64(header.sampleRate)
                for unit in units { try body(.init(source: source, kind: .audio), TimedUnit(unit: unit, duration: duration), .aac(header)) }
            default:
                continue
            }
        }
    }
}

/// One track's sample bytes in decode order, read again from its source's segments (the
/// second pass of `MovieMux`): a segment at a time.
struct SampleStream {
    let key: MovieMux.TrackKey
    let source: MovieMux.Source
    private var readers: SampleReaders
    private var segment = 0
    private var pending: [[UInt8]] = []
    private var position = 0

    init(key: MovieMux.TrackKey, source: MovieMux.Source) {
        self.key = key
        self.source = source
        readers = SampleReaders(kinds: [key.kind])
    }

    /// The next sample's bytes.
    /// - Throws: `source-changed` when the segments hold fewer samples than the first pass read.
    mutating func next() throws(HLSError) -> [UInt8] {
        while position == pending.count {
            guard segment < source.segments.count else {
                throw HLSError(.sourceChanged, "The staged segments hold fewer samples the second time they are read.")
            }
            var units: [[UInt8]] = []
            let key = self.key
            try readers.each(source.segments[segment], of: key.source) { found, unit, _ throws(HLSError) in
                if found == key { units.append(unit.unit.data) }
            }
            pending = units
            position = 0
            segment += 1
        }
        defer { position += 1 }
        return pending[position]
    }
}
