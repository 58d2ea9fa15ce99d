#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// Muxes tracks whose MPEG-TS or fragmented MP4 segments lie in files into one progressive MP4 file, in two
/// passes over the segments, one at a time: the first reads every access unit's timing into the
/// `PresentationTimeline` (discontinuity runs joined, 33-bit wraps unwrapped; `MovieTimingPass`,
/// made while the transfer writes the segments when they come in order), the second writes
/// `ftyp` and `moov` and then each track's sample bytes in the layout's interleaved order.
/// Codec parameters that change at a discontinuity (another resolution, profile, rate or
/// channel layout) become a further sample description of the track. What
/// the file holds is read from the media (its access units), never from the playlists' EXTINFs.
/// Memory: one segment per track in flight and about 24 bytes per sample (32 copied out of
/// fragmented MP4, whose place the first pass keeps: `SampleLocations`).
struct MovieMux {
    /// One segment of a source: its file, the range of it when the source is a single file,
    /// its discontinuity run, its EXTINF duration, and for fragmented MP4 its initialization section.
    struct Segment: Sendable {
        let path: String
        let range: Range<UInt64>?
        let run: Int
        var duration = 0.0
        var map: Region?
        /// An EXT-X-GAP segment: no file, a hole of `duration`.
        var isGap = false
    }

    /// A file, and a range of it (nil: the whole file): an initialization section's or a
    /// segment's place.
    struct Region: Sendable, Hashable {
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
    /// Whether the second pass only copies samples out of their segments (every source is
    /// fragmented MP4) instead of demuxing them.
    var fillIsLight: Bool { sources.allSatisfy { $0.segments.allSatisfy { $0.map != nil || $0.isGap } } }
    /// The subtitle tracks embedded after the sources' tracks.
    var subtitles: [Subtitles] = []
    /// Whether the file is one fragmented MP4 (`FragmentedMP4`) instead of a progressive one.
    var fragmented = false

    /// Writes the file into `output` — its first pass `timed` already when the segments were
    /// timed as they arrived, else made here; returns its size, SHA-256, tracks and where each run's
    /// timestamps landed (for the subtitles).
    /// - Throws: `malformed-media` for streams the readers refuse, `unsupported` for sources
    ///   without a video or audio stream the readers know, `destination-unwritable`, `source-changed` when a segment reads differently the second time.
    func write(to output: DurableFile, timed: MovieTimingPass.Result? = nil) throws(HLSError)
        -> (byteCount: UInt64, sha256: SHA256Digest, tracks: [MP4Track], clock: MovieClock) {
        let first: MovieTimingPass.Result
        if let timed { first = timed } else { first = try firstPass() }
        var tracks = first.tracks
        let held = try embedSubtitles(into: &tracks, clock: first.clock)
        // ffmpeg keeps a fragmented track's first audio configuration for its later sample
        // descriptions (it decodes them wrongly); pictures carry their parameter sets in band.
        if fragmented, let changing = tracks.first(where: { $0.media.isAudio && $0.descriptions.count > 1 }) {
            throw HLSError(.unsupported, "The \(changing.media.family) audio changes its codec parameters at a discontinuity (\(changing.descriptions.count) configurations), "
                           + "which a fragmented MP4 does not carry so that ffmpeg decodes it; the progressive MP4 (without --fragmented) does.")
        }
        let pieces = try Self.media(at: "the movie") { () throws(MediaError) in
            fragmented ? try FragmentedMP4(tracks: tracks).layout().pieces : try ProgressiveMP4(tracks: tracks).layout().pieces
        }
        let file = try copy(pieces, order: first.order, held: held, located: first.locations, tracks: tracks, to: output)
        return (file.byteCount, file.sha256, tracks, first.clock)
    }

    /// Second pass: the layout's pieces in order — its boxes, and each chunk's samples: read
    /// straight from the staged files where the first pass `located` them (fragmented MP4), read
    /// again from their track's segments (MPEG-TS), or, for a track `held` in memory, taken from there.
    private func copy(_ pieces: [ProgressiveMP4.Piece], order: [TrackKey], held: [Int: [[UInt8]]], located: SampleLocations, tracks: [MP4Track],
                      to output: DurableFile) throws(HLSError) -> (byteCount: UInt64, sha256: SHA256Digest) {
        var sink = try MovieFileSink(output)
        var streams = order.map { SampleStream(key: $0, source: sources[$0.source]) }
        var piece = 0
        var position = 0   // in the chunk of `piece`
        // Each 4 MiB of the file made while the last is hashed and written.
        try sink.pipe(fillIsLight: fillIsLight) { (buffer: inout [UInt8]) throws(HLSError) in
            while buffer.count < MovieFileSink.chunkBytes, piece < pieces.count {
                switch pieces[piece] {
                case .bytes(let bytes):
                    buffer += bytes
                    piece += 1
                case .samples(let chunk) where position < chunk.samples.count:
                    let index = chunk.samples.lowerBound + position
                    if let memory = held[chunk.track] {
                        buffer += memory[index]
                        position += 1
                    } else if located.locates(chunk.track) {
                        position += try located.copy(index..<chunk.samples.upperBound, of: tracks[chunk.track], index: chunk.track,
                                                     source: sources[order[chunk.track].source], into: &buffer, room: MovieFileSink.chunkBytes - buffer.count)
                    } else {
                        buffer += try streams[chunk.track].next(size: tracks[chunk.track].samples[index].size)
                        position += 1
                    }
                case .samples:
                    piece += 1
                    position = 0
                }
            }
        }
        return try sink.finish()
    }
}
