/// Lays out a progressive MP4 file with its movie box first, so players start without seeking
/// to the end (ISO/IEC 14496-12 §6.2, §8): `ftyp`, then `moov` with every track's sample tables,
/// then one `mdat` whose samples are interleaved in chunks of about `chunkDuration` seconds
/// ordered by decode time. Pure: it returns the header bytes (`ftyp`, `moov`, the `mdat`
/// header) and the order in which each track's sample bytes follow; the caller, holding the
/// bytes, writes them. Offsets past 4 GiB use `co64` and a 64-bit `mdat` size; durations past
/// 32 bits use version 1 headers.
public struct ProgressiveMP4: Sendable {
    /// A run of one track's samples written together.
    public struct Chunk: Sendable, Equatable {
        /// The track's index.
        public let track: Int
        /// Its samples (decode order).
        public let samples: Range<Int>
        /// Their bytes.
        public let byteCount: UInt64

        /// Samples `samples` of track `track`, `byteCount` bytes.
        public init(track: Int, samples: Range<Int>, byteCount: UInt64) {
            self.track = track
            self.samples = samples
            self.byteCount = byteCount
        }
    }

    /// A part of a file in order: bytes the layout made, or a chunk of one track's samples.
    public enum Piece: Sendable {
        case bytes([UInt8])
        case samples(Chunk)

        /// Its length in the file.
        public var byteCount: UInt64 {
            switch self {
            case .bytes(let bytes): UInt64(bytes.count)
            case .samples(let chunk): chunk.byteCount
            }
        }
    }

    /// The file's start and what follows it.
    public struct Layout: Sendable {
        /// `ftyp`, `moov` and the `mdat` header.
        public let header: [UInt8]
        /// The chunks in file order after the header.
        public let chunks: [Chunk]
        /// The whole file's size.
        public var fileSize: UInt64 { UInt64(header.count) + chunks.reduce(0) { $0 + $1.byteCount } }
        /// The file as pieces in order.
        public var pieces: [Piece] { [.bytes(header)] + chunks.map(Piece.samples) }
        /// The pieces and the file's size, as `FragmentedMP4.layout()` gives them.
        public var sized: (pieces: [Piece], fileSize: UInt64) { (pieces, fileSize) }
    }

    /// The movie timescale (`mvhd`): durations of the movie and of edits. The MPEG-2 clock, so
    /// an offset between tracks taken from transport stream timestamps is kept exactly (an
    /// audio track's within one of its samples).
    public static let movieTimescale: UInt32 = 90000

    public let tracks: [MP4Track]
    /// Seconds of each track per chunk.
    public let chunkDuration: Double

    /// A file of `tracks` (none empty), chunked every `chunkDuration` seconds.
    public init(tracks: [MP4Track], chunkDuration: Double = 1) {
        self.tracks = tracks
        self.chunkDuration = chunkDuration
    }

    /// The layout.
    /// - Throws: `malformed-elementary-stream` when there is no track or a track has no sample.
    public func layout() throws(MediaError) -> Layout {
        try checkTracks()
        return header(chunks: interleavedChunks(), multiple: 1)
    }

    /// The layout of a file whose samples already lie in `given`'s order (a streamed body: each
    /// chunk's bytes right after the one before it), each chunk cut where its track's sample
    /// description changes (a chunk has one), the header padded with a `free` box to a multiple
    /// of `headerMultiple` bytes (a filesystem block: it goes in front of the body without a copy).
    /// - Throws: `malformed-elementary-stream` when there is no track, a track has no sample, or
    ///   the chunks do not hold every sample of every track once, in order.
    public func layout(chunks given: [Chunk], headerMultiple: Int) throws(MediaError) -> Layout {
        try checkTracks()
        var next = [Int](repeating: 0, count: tracks.count)
        var chunks: [Chunk] = []
        chunks.reserveCapacity(given.count)
        for chunk in given {
            guard chunk.track < tracks.count, chunk.samples.lowerBound == next[chunk.track], chunk.samples.upperBound <= tracks[chunk.track].samples.count else {
                throw MediaError(.malformedElementaryStream, "The chunks of a streamed body do not follow their track's samples (track \(chunk.track), \(chunk.samples)).")
            }
            next[chunk.track] = chunk.samples.upperBound
            let samples = tracks[chunk.track].samples
            var start = chunk.samples.lowerBound
            var bytes: UInt64 = 0
            for index in chunk.samples {
                if index > start, samples[index].description != samples[start].description {
                    chunks.append(Chunk(track: chunk.track, samples: start..<index, byteCount: bytes))
                    (start, bytes) = (index, 0)
                }
                bytes += UInt64(samples[index].size)
            }
            chunks.append(Chunk(track: chunk.track, samples: start..<chunk.samples.upperBound, byteCount: bytes))
        }
        guard next == tracks.map(\.samples.count) else {
            throw MediaError(.malformedElementaryStream, "The chunks of a streamed body leave samples out.")
        }
        return header(chunks: chunks, multiple: max(1, headerMultiple))
    }

    private func checkTracks() throws(MediaError) {
        guard !tracks.isEmpty, tracks.allSatisfy({ !$0.samples.isEmpty }) else {
            throw MediaError(.malformedElementaryStream, "An MP4 file needs at least one track, each with samples.")
        }
    }

    /// `ftyp`, `moov` (its chunk offsets after the header), a `free` box making the header a
    /// multiple of `multiple` bytes when it is not, and the `mdat` header.
    private func header(chunks: [Chunk], multiple: Int) -> Layout {
        let payload = chunks.reduce(0) { $0 + $1.byteCount }
        let ftyp = Self.fileType(audioOnly: !tracks.contains { $0.media.isVideo })
        var header: [UInt8] = []
        for wide in [false, true] {
            let mdat = MP4BoxWriter.mediaDataHeader(payload: payload)
            let moovSize = movie(chunks: chunks, firstOffset: 0, wide: wide).count
            var padding = (multiple - (ftyp.count + moovSize + mdat.count) % multiple) % multiple
            if padding > 0, padding < 8 { padding += multiple }
            let first = UInt64(ftyp.count + moovSize + padding + mdat.count)
            if !wide, first + payload > UInt64(UInt32.max) { continue }
            header = ftyp + movie(chunks: chunks, firstOffset: first, wide: wide) + MP4BoxWriter.free(padding) + mdat
            break
        }
        return Layout(header: header, chunks: chunks)
    }

    /// `ftyp` as ffmpeg writes it: isom, version 512, compatible with isom, iso2, avc1 and mp41;
    /// for audio alone `M4A `, compatible with M4A, isom, iso2 and mp41 (what players expect of
    /// an .m4a file); `fragmented`, iso6 first (movie fragments with `tfdt`; RFC 8216 §3.3).
    static func fileType(audioOnly: Bool, fragmented: Bool = false) -> [UInt8] {
        var writer = MP4BoxWriter()
        let major = fragmented ? "iso6" : audioOnly ? "M4A " : "isom"
        var brands = audioOnly ? ["M4A ", "isom", "iso2", "mp41"] : ["isom", "iso2", "avc1", "mp41"]
        if fragmented { brands.insert("iso6", at: 0) }
        writer.box("ftyp") { box in
            box.fourCC(major)
            box.u32(audioOnly && !fragmented ? 0 : 0x200)
            for brand in brands { box.fourCC(brand) }
        }
        return writer.bytes
    }

    /// Each track cut into chunks of `chunkDuration` (and where its sample description changes:
    /// a chunk has one), all ordered by their first decode time (track order between equals).
    func interleavedChunks() -> [Chunk] {
        var all: [(time: Double, chunk: Chunk)] = []
        for (index, track) in tracks.enumerated() {
            let span = Int64(chunkDuration * Double(track.timescale))
            var start = 0
            var bytes: UInt64 = 0
            for (sample, entry) in track.samples.enumerated() {
                if sample > start, entry.decodeTime - track.samples[start].decodeTime >= span || entry.description != track.samples[start].description {
                    all.append((Double(track.samples[start].decodeTime) / Double(track.timescale), Chunk(track: index, samples: start..<sample, byteCount: bytes)))
                    start = sample
                    bytes = 0
                }
                bytes += UInt64(entry.size)
            }
            all.append((Double(track.samples[start].decodeTime) / Double(track.timescale), Chunk(track: index, samples: start..<track.samples.count, byteCount: bytes)))
        }
        return all.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element.chunk)
    }
}
