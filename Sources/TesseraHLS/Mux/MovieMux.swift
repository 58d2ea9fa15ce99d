#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// Muxes tracks whose MPEG-TS or fragmented MP4 segments lie in files into one progressive MP4 file, in two
/// passes over the segments, one at a time: the first reads every access unit's timing into the
/// `PresentationTimeline` (discontinuity runs joined, 33-bit wraps unwrapped), the second writes
/// `ftyp` and `moov` and then each track's sample bytes in the layout's interleaved order.
/// Codec parameters that change at a discontinuity (another resolution, profile, rate or
/// channel layout) become a further sample description of the track. What
/// the file holds is read from the media (its access units), never from the playlists' EXTINFs.
/// Memory: one segment per track in flight and about 24 bytes per sample.
struct MovieMux {
    /// One segment of a source: its file, the range of it when the source is a single file,
    /// its discontinuity run, its EXTINF duration, and for fragmented MP4 its initialization section.
    struct Segment: Sendable {
        let path: String
        let range: Range<UInt64>?
        let run: Int
        var duration = 0.0
        var map: Initialization?
        /// An EXT-X-GAP segment: no file, a hole of `duration`.
        var isGap = false
    }

    /// An initialization section's file and range.
    struct Initialization: Sendable, Hashable {
        let path: String
        let range: Range<UInt64>?
    }

    /// A playlist's segments and what is taken from them.
    struct Source: Sendable {
        let segments: [Segment]
        /// Which elementary streams become tracks.
        let kinds: Set<ElementaryStreamReader.Kind>
        /// The rendition's ISO 639-2/T language, for its audio track.
        var language = "und"
        /// The rendition's NAME.
        var name: String?
        /// Whether its audio plays unless another is chosen.
        var isEnabled = true
    }

    /// A subtitle track embedded in the file as timed text (`tx3g`).
    struct Subtitles: Sendable {
        let segments: [Segment]
        /// The rendition's ISO 639-2/T language.
        var language = "und"
        var name: String?
        /// Whether players show it unless told otherwise (DEFAULT=YES or FORCED=YES).
        var isEnabled = false
    }

    /// Which source and kind a track is.
    struct TrackKey: Hashable, Sendable {
        let source: Int
        let kind: ElementaryStreamReader.Kind
    }

    let sources: [Source]
    /// The subtitle tracks embedded after the sources' tracks.
    var subtitles: [Subtitles] = []
    /// Whether the file is one fragmented MP4 (`FragmentedMP4`) instead of a progressive one.
    var fragmented = false

    /// Writes the file into `output`; returns its size, SHA-256, tracks and where each run's
    /// timestamps landed (for the subtitles).
    /// - Throws: `malformed-media` for streams the readers refuse, `unsupported` for sources
    ///   without a video or audio stream the readers know, `destination-unwritable`, `source-changed` when a segment reads differently the second time.
    func write(to output: DurableFile) throws(HLSError) -> (byteCount: UInt64, sha256: SHA256Digest, tracks: [MP4Track], clock: MovieClock) {
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
        // Subtitles on the movie's clock as timed-text tracks, their samples held in memory.
        var held: [Int: [[UInt8]]] = [:]
        for subtitle in subtitles {
            let cues = try MovieSubtitles.cues(of: subtitle.segments, clock: timeline.clock).plainCues
            guard let made = try Self.media(at: "the subtitles", { () throws(MediaError) in try TimedText.track(cues) }) else { continue }
            var track = made.track
            track.language = subtitle.language
            track.name = subtitle.name
            track.isEnabled = subtitle.isEnabled
            track.alternateGroup = 2
            held[tracks.count] = made.samples
            tracks.append(track)
        }
        // ffmpeg keeps a fragmented track's first audio configuration for its later sample
        // descriptions (it decodes them wrongly); pictures carry their parameter sets in band.
        if fragmented, let changing = tracks.first(where: { $0.media.isAudio && $0.descriptions.count > 1 }) {
            throw HLSError(.unsupported, "The \(changing.media.family) audio changes its codec parameters at a discontinuity (\(changing.descriptions.count) configurations), "
                           + "which a fragmented MP4 does not carry so that ffmpeg decodes it; the progressive MP4 (without --fragmented) does.")
        }
        let pieces = try Self.media(at: "the movie") { () throws(MediaError) in
            fragmented ? try FragmentedMP4(tracks: tracks).layout().pieces : try ProgressiveMP4(tracks: tracks).layout().pieces
        }
        let file = try copy(pieces, order: order, held: held, tracks: tracks, to: output)
        return (file.byteCount, file.sha256, tracks, timeline.clock)
    }

    /// Second pass: the layout's pieces in order — its boxes, and each chunk's samples read again
    /// from its track's segments (or, for a track `held` in memory, taken from there).
    private func copy(_ pieces: [ProgressiveMP4.Piece], order: [TrackKey], held: [Int: [[UInt8]]], tracks: [MP4Track],
                      to output: DurableFile) throws(HLSError) -> (byteCount: UInt64, sha256: SHA256Digest) {
        let hasher: SHA256Hasher
        do { hasher = try SHA256Hasher() } catch { throw HLSError(.destinationUnwritable, "SHA-256 is unavailable: \(error).") }
        var buffer: [UInt8] = []
        var streams = order.map { SampleStream(key: $0, source: sources[$0.source]) }
        var written: UInt64 = 0
        func flush(_ force: Bool) throws(HLSError) {
            guard force || buffer.count >= 4 << 20 else { return }
            hasher.update(buffer)
            do { try output.append(buffer) } catch { throw HLSError(destination: error) }
            written += UInt64(buffer.count)
            output.startWriteback(upTo: written)   // the file's sync before publication then waits for little
            buffer.removeAll(keepingCapacity: true)
        }
        for piece in pieces {
            switch piece {
            case .bytes(let bytes):
                buffer += bytes
            case .samples(let chunk):
                for index in chunk.samples {
                    let data: [UInt8]
                    if let memory = held[chunk.track] { data = memory[index] } else { data = try streams[chunk.track].next() }
                    guard UInt32(data.count) == tracks[chunk.track].samples[index].size else {
                        throw HLSError(.sourceChanged, "A segment read differently the second time (sample \(index) of track \(chunk.track + 1)).")
                    }
                    buffer += data
                    try flush(false)
                }
            }
            try flush(false)
        }
        try flush(true)
        return (written, hasher.finalize())
    }

    /// Keeps the holes of `segments`' EXT-X-GAP segments that joining their runs would close:
    /// those before a run's first media (at a discontinuity, or the presentation's start). A
    /// hole inside a run stays by its media's own timestamps.
    static func holdGaps(of segments: [Segment], in timeline: inout PresentationTimeline) {
        var pending = 0.0
        var lastRun: Int?
        for segment in segments {
            if segment.isGap {
                pending += segment.duration
                continue
            }
            if segment.run != lastRun, pending > 0 { timeline.hold(Int64((pending * 90_000).rounded()), before: segment.run) }
            pending = 0
            lastRun = segment.run
        }
    }

    /// The largest segment read whole (a byte range says its own size).
    static let maximumSegmentBytes = 1 << 30

    /// The bytes of `segment`.
    /// - Throws: `destination-unwritable` when the staged file cannot be read.
    static func read(_ segment: Segment) throws(HLSError) -> [UInt8] {
        do throws(SupportError) {
            if let range = segment.range {
                return try FileDescriptorIO.readRegularFile(segment.path, offset: range.lowerBound, count: Int(range.count))
            }
            return try FileDescriptorIO.readRegularFile(segment.path, limit: maximumSegmentBytes)
        } catch {
            throw HLSError(destination: error)
        }
    }

    /// The access units of `segment`'s file through `reader` (its initialization section read
    /// once into `inits`).
    static func units(of segment: Segment, reader: inout ElementaryStreamReader,
                      inits: inout [Initialization: FragmentedMP4Init]) throws(HLSError) -> [ElementaryStreamReader.Unit] {
        let bytes = try read(segment)
        guard let map = segment.map else {
            return try media(at: segment.path) { () throws(MediaError) in try reader.read(segment: bytes) }
        }
        if inits[map] == nil {
            let initBytes = try read(Segment(path: map.path, range: map.range, run: 0))
            inits[map] = try media(at: map.path) { () throws(MediaError) in try FragmentedMP4Init(initBytes) }
        }
        let initialization = inits[map]!
        return try media(at: segment.path) { () throws(MediaError) in try reader.read(fragment: bytes, initialization: initialization) }
    }

    /// Runs a reader step, its `MediaError` as `malformed-media` naming `what` (`unsupported` for
    /// parameters that change).
    static func media<T>(at what: String, _ body: () throws(MediaError) -> T) throws(HLSError) -> T {
        do { return try body() } catch {
            throw HLSError([.malformedElementaryStream, .malformedTransportStream, .malformedBoxes].contains(error.code) ? .malformedMedia : .unsupported,
                           "\(what): \(error.message)", cause: error)
        }
    }
}
