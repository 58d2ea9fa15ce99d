import TesseraMedia

extension MovieMux {
    /// First pass: every access unit's timing read into the `PresentationTimeline` (discontinuity
    /// runs joined, 33-bit wraps unwrapped, EXT-X-GAP holes held), the tracks in the order their
    /// streams first appear, each audio track with its rendition's language, name and flags.
    /// - Throws: `malformed-media`, `unsupported` (no stream the readers know), `destination-unwritable`.
    func firstPass() throws(HLSError) -> (timeline: PresentationTimeline, order: [TrackKey], tracks: [MP4Track]) {
        var timeline = PresentationTimeline()
        var order: [TrackKey] = []
        var indices: [TrackKey: Int] = [:]
        var inits: [Initialization: FragmentedMP4Init] = [:]
        Self.holdGaps(of: sources.first?.segments ?? [], in: &timeline)
        for (index, source) in sources.enumerated() {
            var reader = ElementaryStreamReader(kinds: source.kinds)
            for segment in source.segments where !segment.isGap {
                for unit in try Self.units(of: segment, reader: &reader, inits: &inits) {
                    let key = TrackKey(source: index, kind: unit.kind)
                    let track = indices[key] ?? timeline.addTrack(unit.media)
                    if indices[key] == nil {
                        indices[key] = track
                        order.append(key)
                    }
                    try Self.media(at: segment.path) { () throws(MediaError) in
                        try timeline.append(unit.unit, size: unit.unit.data.count, duration: unit.duration, media: unit.media, hidden: unit.hidden, to: track, run: segment.run)
                    }
                }
            }
        }
        guard !order.isEmpty else { throw HLSError(.unsupported, "The sources hold no video (H.264, H.265) or audio (AAC, AC-3, E-AC-3, MPEG audio) stream to mux into MP4.") }
        var tracks = try Self.media(at: "the timeline") { () throws(MediaError) in try timeline.movieTracks() }
        for (index, key) in order.enumerated() where key.kind == .audio {
            tracks[index].language = sources[key.source].language
            tracks[index].name = sources[key.source].name
            tracks[index].isEnabled = sources[key.source].isEnabled
            tracks[index].alternateGroup = 1
        }
        return (timeline, order, tracks)
    }

    /// The subtitle tracks on the movie's `clock` as timed-text tracks appended to `tracks`;
    /// returns their samples, held in memory, by track index.
    /// - Throws: `malformed-media` for a segment that is not WebVTT or a cue too long for a sample.
    func embedSubtitles(into tracks: inout [MP4Track], clock: MovieClock) throws(HLSError) -> [Int: [[UInt8]]] {
        var held: [Int: [[UInt8]]] = [:]
        for subtitle in subtitles {
            let cues = try MovieSubtitles.cues(of: subtitle.segments, clock: clock).plainCues
            guard let made = try Self.media(at: "the subtitles", { () throws(MediaError) in try TimedText.track(cues) }) else { continue }
            var track = made.track
            track.language = subtitle.language
            track.name = subtitle.name
            track.isEnabled = subtitle.isEnabled
            track.alternateGroup = 2
            held[tracks.count] = made.samples
            tracks.append(track)
        }
        return held
    }
}
