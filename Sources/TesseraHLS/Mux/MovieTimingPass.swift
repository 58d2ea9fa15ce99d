import TesseraMedia

/// The first pass of `MovieMux`, a segment at a time: every access unit's timing read into the
/// `PresentationTimeline` (discontinuity runs joined, 33-bit wraps unwrapped, EXT-X-GAP holes
/// held), the tracks in the order their streams first appear. The segments are taken in the
/// sources' order — each source's segments in playlist order, source after source — either all
/// at once from their files (`MovieMux.firstPass`) or as the transfer writes them (`MovieOutput`),
/// their bytes then still in memory. Memory: one segment's units and about 24 bytes per sample
/// (32 for a sample copied out of fragmented MP4: where it lies, `SampleLocations`).
struct MovieTimingPass {
    /// What the pass gives the second: where each run landed on the movie's clock, the track of
    /// each index, and the tracks with each audio rendition's language, name and flags (the
    /// timeline's own tables are let go: the tracks hold the samples).
    struct Result {
        let clock: MovieClock
        let order: [MovieMux.TrackKey]
        let tracks: [MP4Track]
        /// Where the samples copied out of fragmented MP4 lie, for the second pass.
        let locations: SampleLocations
    }

    private let sources: [MovieMux.Source]
    /// Each media segment's place — its file, and its range there when it has one — by position.
    private let places: [MovieMux.Region: (source: Int, segment: Int)]
    private var tracks: MovieTracks
    private var inits: [MovieMux.Region: FragmentedMP4Init] = [:]
    /// The reader of the source being taken, and its index.
    private var reader: (source: Int, reader: ElementaryStreamReader)?
    /// The next segment taken: its source and its index there (gaps skipped).
    private(set) var next: (source: Int, segment: Int)?

    /// A pass over `sources`, its first segment next.
    init(sources: [MovieMux.Source]) {
        self.sources = sources
        var places: [MovieMux.Region: (source: Int, segment: Int)] = [:]
        for (index, source) in sources.enumerated() {
            for (position, segment) in source.segments.enumerated() where !segment.isGap {
                places[MovieMux.Region(path: segment.path, range: segment.range)] = (index, position)
            }
        }
        self.places = places
        tracks = MovieTracks(sources: sources)
        next = Self.media(after: (0, -1), in: sources)
    }

    /// Whether every segment is taken.
    var isComplete: Bool { next == nil }

    /// Takes the next segment (`next`), its bytes when they are at hand (else read from its file).
    /// - Throws: `malformed-media`, `unsupported` (a reader's refusal), `destination-unwritable`
    ///   (a file that does not read).
    mutating func take(bytes: [UInt8]? = nil) throws(HLSError) {
        guard let (index, position) = next else { preconditionFailure("a segment is taken while some are left") }
        let segment = sources[index].segments[position]
        var reader = self.reader.take().flatMap { $0.source == index ? $0.reader : nil } ?? Self.reader(of: sources[index])
        defer { self.reader = (index, reader) }
        _ = try tracks.append(try MovieMux.units(of: segment, bytes: bytes, reader: &reader, inits: &inits), source: index, segment: position,
                              run: segment.run, at: segment.path)
        next = Self.media(after: (index, position), in: sources)
    }

    /// Takes the segment written to `range` of the file at `path`, its `bytes` when at hand, if
    /// it is the next one; says whether it was (nil: no segment lies there — an initialization
    /// section, another track's file).
    /// - Throws: as `take`.
    mutating func offer(path: String, range: Range<UInt64>, bytes: [UInt8]?) throws(HLSError) -> Bool? {
        let place = places[MovieMux.Region(path: path, range: range)] ?? (range.lowerBound == 0 ? places[MovieMux.Region(path: path, range: nil)] : nil)
        guard let place else { return nil }
        guard let next, next == place else { return false }
        try take(bytes: bytes)
        return true
    }

    /// The pass's result once every segment is taken.
    /// - Throws: `unsupported` when the sources hold no stream the readers know;
    ///   `malformed-media` when the timeline's tables cannot be made.
    func finish() throws(HLSError) -> Result {
        precondition(isComplete, "the pass is finished once every segment is taken")
        return try tracks.finish(sources: sources)
    }

    /// A reader of `source`'s kinds that keeps sizes and timing, not the pictures' bytes.
    private static func reader(of source: MovieMux.Source) -> ElementaryStreamReader {
        var reader = ElementaryStreamReader(kinds: source.kinds)
        reader.keepsBytes = false
        return reader
    }

    /// The media segment (not a gap) after `position`, in the sources' order.
    private static func media(after position: (source: Int, segment: Int), in sources: [MovieMux.Source]) -> (source: Int, segment: Int)? {
        var (source, segment) = (position.source, position.segment + 1)
        while source < sources.count {
            while segment < sources[source].segments.count {
                if !sources[source].segments[segment].isGap { return (source, segment) }
                segment += 1
            }
            (source, segment) = (source + 1, 0)
        }
        return nil
    }
}
