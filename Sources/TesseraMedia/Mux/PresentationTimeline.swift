/// One presentation timeline across every track of a file being muxed (RFC 8216bis §3.3.3 for
/// discontinuities; ISO/IEC 13818-1 §2.4.3.7 for 33-bit timestamps). Access units arrive per
/// track with their 90 kHz MPEG-2 timestamps and the run they belong to — a run is what lies
/// between two EXT-X-DISCONTINUITY tags, and its timestamps may start anywhere. Within a run
/// timestamps are unwrapped past 2^33 (each taken as the nearest to the one before it); each
/// run is then moved as a whole — every track by the same amount, so the offset between audio
/// and video inside it is kept to the tick — to begin where the run before it ended, and the
/// first run to begin at 0. Codec parameters that change (another resolution, profile, rate or
/// channel layout after an ad break) become further sample descriptions of the track. Only
/// timing is kept (about 24 bytes per sample); the bytes go to
/// the caller's store in the same order.
public struct PresentationTimeline: Sendable {
    /// 24 bytes a sample: the 8-byte field first, the rest packed behind it.
    private struct Entry: Sendable {
        let decodeTime: Int64
        let run: Int32
        let compositionOffset: Int32
        let size: UInt32
        let description: UInt16
        let isSync: Bool
    }

    private struct Track: Sendable {
        /// Its sample descriptions' media, the first the track's.
        var descriptions: [MP4Track.Media]
        var entries: [Entry] = []
        /// The last entry's 90 kHz duration, when known.
        var lastDuration: Int64?
        /// The last entry's run and its 33-bit decode time.
        var last: (run: Int32, raw: UInt64, unwrapped: Int64)?
    }

    private var tracks: [Track] = []
    /// Each run's first timestamp (33-bit and as unwrapped), the reference the first sample of
    /// every track in it is unwrapped against.
    private var references: [Int32: (raw: UInt64, value: Int64)] = [:]
    /// Each run's presentation span on its own unwrapped clock.
    private var spans: [Int32: (start: Int64, end: Int64)] = [:]
    /// Each run's first and last decode time per track, on the run's unwrapped clock.
    private var decodes: [Int32: [Int: (first: Int64, last: Int64)]] = [:]
    /// Time kept empty before a run (90 kHz): media the presentation does not have (EXT-X-GAP).
    private var holds: [Int32: Int64] = [:]

    /// An empty timeline.
    public init() {}

    /// Adds a track of `media`; returns its index.
    public mutating func addTrack(_ media: MP4Track.Media) -> Int {
        tracks.append(Track(descriptions: [media]))
        return tracks.count - 1
    }

    /// Records the next access unit of `track` (decode order) in `run` (runs never go back),
    /// `duration` its 90 kHz length when known (an audio frame's; else the decode step before
    /// it), `size` its bytes; `media` its codec parameters when they may differ from the
    /// track's first (a further sample description then carries them); `hidden` the 90 kHz
    /// ticks at its start that are decoded but not shown (priming).
    /// - Throws: `malformed-elementary-stream` when the run goes back or the decode time does
    ///   not increase within a run; `parameters-changed` when the media is of another kind.
    public mutating func append(_ unit: AccessUnit, size: Int, duration: Int64? = nil, media: MP4Track.Media? = nil, hidden: Int64 = 0,
                                to track: Int, run: Int) throws(MediaError) {
        var description: UInt16 = 0
        if let media, media != tracks[track].descriptions[0] {
            guard Self.sameKind(media, tracks[track].descriptions[0]) else {
                throw MediaError(.parametersChanged, "Track \(track) changes codec (H.264 to AAC or back).")
            }
            if let index = tracks[track].descriptions.firstIndex(of: media) {
                description = UInt16(index)
            } else {
                guard tracks[track].descriptions.count < 1024 else { throw MediaError(.parametersChanged, "Track \(track) changes its codec parameters more than 1,023 times.") }
                tracks[track].descriptions.append(media)
                description = UInt16(tracks[track].descriptions.count - 1)
            }
        }
        let run = Int32(run)
        let raw = unit.decodeTime & MPEGTimestamp.mask
        let reference = references[run] ?? (raw, Int64(raw))
        references[run] = reference
        let decode: Int64
        var step: Int64 = 0
        if let last = tracks[track].last, last.run == run {
            decode = last.unwrapped + MPEGTimestamp.difference(raw, last.raw)
            guard decode > last.unwrapped else {
                throw MediaError(.malformedElementaryStream, "Track \(track)'s decode time goes from \(last.raw) to \(raw) inside one run.")
            }
            step = decode - last.unwrapped
        } else {
            if let last = tracks[track].last, last.run > run {
                throw MediaError(.malformedElementaryStream, "Track \(track) goes back from run \(last.run) to run \(run).")
            }
            decode = reference.value + MPEGTimestamp.difference(raw, reference.raw)
        }
        let offset = MPEGTimestamp.difference(unit.presentationTime & MPEGTimestamp.mask, raw)
        tracks[track].last = (run, raw, decode)
        tracks[track].entries.append(Entry(decodeTime: decode, run: run, compositionOffset: Int32(clamping: offset), size: UInt32(clamping: size),
                                           description: description, isSync: unit.isSync))
        tracks[track].lastDuration = duration
        decodes[run, default: [:]][track] = (decodes[run]?[track]?.first ?? decode, decode)
        let presented = decode + offset
        // Without a known duration, a sample lasts as long as the step to it (a video frame).
        let end = presented + (duration ?? step)
        // What is hidden (an encoder's priming) does not start the run: the movie starts where
        // something is shown, and the hidden part is cut by the track's edit.
        let shown = presented + hidden
        let span = spans[run] ?? (shown, end)
        spans[run] = (min(span.start, shown), max(span.end, end))
    }

    /// Keeps `ticks` (90 kHz) empty before `run` starts: a hole in the presentation (EXT-X-GAP
    /// segments at a join, or before the first run) that joining the runs would otherwise close.
    public mutating func hold(_ ticks: Int64, before run: Int) {
        holds[Int32(clamping: run), default: 0] += max(0, ticks)
    }

    /// Where each run starts on the movie clock (90 kHz): the first at 0 (after what is held
    /// before it), each where the one before it ended (and what is held before it) — or, when a track of it would decode before that track's last sample
    /// of the earlier runs (a longer reordering delay after the join), just late enough that
    /// it does not: a hole of a few ticks rather than a decode order that goes back.
    var runOffsets: [Int32: Int64] {
        var offsets: [Int32: Int64] = [:]
        var movieEnd: Int64 = 0
        var lastDecodes: [Int: Int64] = [:]
        for run in spans.keys.sorted() {
            let span = spans[run]!
            var offset = movieEnd + (holds[run] ?? 0) - span.start
            for (track, times) in decodes[run] ?? [:] {
                if let last = lastDecodes[track] { offset = max(offset, last + 1 - times.first) }
            }
            offsets[run] = offset
            for (track, times) in decodes[run] ?? [:] { lastDecodes[track] = times.last + offset }
            movieEnd = span.end + offset
        }
        return offsets
    }

    /// Where each run's timestamps land on the movie's clock.
    public var clock: MovieClock { MovieClock(references: references, offsets: runOffsets) }

    /// The tracks on the movie's timeline: video on the 90 kHz clock, audio on its sample
    /// rate (each frame at its own time, so a gap or overlap at a join lengthens or shortens
    /// the frame before it instead of moving the rest).
    /// - Throws: `malformed-elementary-stream` when a track has no sample.
    public func movieTracks() throws(MediaError) -> [MP4Track] {
        let offsets = runOffsets
        var result: [MP4Track] = []
        for (index, track) in tracks.enumerated() {
            guard !track.entries.isEmpty else { throw MediaError(.malformedElementaryStream, "Track \(index) has no sample.") }
            let first = track.descriptions[0]
            if first.isVideo {
                var movie = MP4Track(media: first, timescale: UInt32(MPEGTimestamp.ticksPerSecond))
                for media in track.descriptions.dropFirst() { _ = try movie.description(of: media) }
                for entry in track.entries {
                    try movie.append(.init(size: entry.size, decodeTime: entry.decodeTime + offsets[entry.run]!, compositionOffset: entry.compositionOffset,
                                           isSync: entry.isSync, description: entry.description))
                }
                result.append(movie)
            } else {
                // Audio keeps its own clock: the codec's sample rate, or a copied entry's timescale.
                let clock = first.audioClock
                let rate = Int64(clock.rate)
                var movie = MP4Track(media: first, timescale: UInt32(rate))
                for media in track.descriptions.dropFirst() { _ = try movie.description(of: media) }
                var previous: Int64?
                for entry in track.entries {
                    let ideal = Self.rescale(entry.decodeTime + Int64(entry.compositionOffset) + offsets[entry.run]!, to: rate)
                    let time = previous.map { max($0 + 1, ideal) } ?? ideal
                    try movie.append(.init(size: entry.size, decodeTime: time, compositionOffset: 0, isSync: true, description: entry.description))
                    previous = time
                }
                let frame: Int64 = clock.samplesPerFrame.map { Int64($0) * 90000 / rate } ?? 1920
                movie.endTime = previous.map { $0 + max(1, Self.rescale(track.lastDuration ?? frame, to: rate)) }
                result.append(movie)
            }
        }
        return result
    }

    /// Whether two media can be sample descriptions of one track: one codec, or copied entries
    /// of one kind.
    private static func sameKind(_ a: MP4Track.Media, _ b: MP4Track.Media) -> Bool { a.family == b.family }

    /// `ticks` of the 90 kHz clock in `rate` ticks per second, rounded to the nearest.
    static func rescale(_ ticks: Int64, to rate: Int64) -> Int64 {
        let scaled = ticks * rate
        let clock = Int64(MPEGTimestamp.ticksPerSecond)
        return (scaled >= 0 ? scaled + clock / 2 : scaled - clock / 2) / clock
    }
}
