import TesseraMedia

/// The movie's tracks as access units come in, whatever order their segments come in: each
/// source's kinds a track in the order they first appear, every unit's timing on one
/// `PresentationTimeline` (discontinuity runs joined, 33-bit wraps unwrapped, EXT-X-GAP holes
/// held), where each fMP4 sample lies when asked. Shared by the mux's timing pass (segments in the sources'
/// order) and the streamed mux (segments interleaved by time). About 24 bytes a sample.
struct MovieTracks {
    private var timeline = PresentationTimeline()
    private(set) var order: [MovieMux.TrackKey] = []
    private var indices: [MovieMux.TrackKey: Int] = [:]
    private var locations = SampleLocations()
    /// Whether `locations` keeps where each fMP4 sample lies (the staged mux reads them from there).
    private let locatesSamples: Bool

    /// No track yet; the EXT-X-GAP holes of the first source's segments held; with
    /// `locatesSamples`, where each fMP4 sample lies kept (8 bytes a sample).
    init(sources: [MovieMux.Source], locatesSamples: Bool = true) {
        self.locatesSamples = locatesSamples
        MovieMux.holdGaps(of: sources.first?.segments ?? [], in: &timeline)
    }

    /// Appends `units` of segment `position` of source `source` (in discontinuity run `run`, read
    /// from `path`); returns each unit's track.
    /// - Throws: `malformed-media` when a unit's timing does not follow its track's.
    mutating func append(_ units: [ElementaryStreamReader.Unit], source: Int, segment position: Int, run: Int,
                         at path: String) throws(HLSError) -> [Int] {
        var tracks: [Int] = []
        tracks.reserveCapacity(units.count)
        for unit in units {
            let key = MovieMux.TrackKey(source: source, kind: unit.kind)
            let track = indices[key] ?? timeline.addTrack(unit.media)
            if indices[key] == nil {
                indices[key] = track
                order.append(key)
            }
            try MovieMux.media(at: path) { () throws(MediaError) in
                try timeline.append(unit.unit, size: unit.unit.size, duration: unit.duration, media: unit.media, hidden: unit.hidden,
                                    to: track, run: run)
            }
            locations.append(track: track, segment: position, offset: locatesSamples ? unit.offset : nil)
            tracks.append(track)
        }
        return tracks
    }

    /// The tracks once every unit is in, each audio rendition's with its language, name and flags.
    /// - Throws: `unsupported` when the sources hold no stream the readers know;
    ///   `malformed-media` when the timeline's tables cannot be made.
    func finish(sources: [MovieMux.Source]) throws(HLSError) -> MovieTimingPass.Result {
        guard !order.isEmpty else {
            throw HLSError(.unsupported, "The sources hold no video (H.264, H.265) or audio (AAC, AC-3, E-AC-3, MPEG audio) stream to mux into MP4.")
        }
        var tracks = try MovieMux.media(at: "the timeline") { () throws(MediaError) in try timeline.movieTracks() }
        for (index, key) in order.enumerated() where key.kind == .audio {
            tracks[index].language = sources[key.source].language
            tracks[index].name = sources[key.source].name
            tracks[index].isEnabled = sources[key.source].isEnabled
            tracks[index].alternateGroup = 1
        }
        return MovieTimingPass.Result(clock: timeline.clock, order: order, tracks: tracks, locations: locations)
    }
}
