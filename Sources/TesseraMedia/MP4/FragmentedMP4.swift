/// Lays out one fragmented MP4 file (ISO/IEC 14496-12 §8.8; the single-file form of CMAF):
/// `ftyp` (iso6), a `moov` whose tracks have empty sample tables and an `mvex` (`mehd`, a `trex`
/// per track), then a movie fragment about every `fragmentDuration` seconds — cut at the first
/// video track's sync samples (every track cut at the same time), and where any track's sample
/// description changes — each a `moof` (`mfhd`; per track a `traf`: `tfhd` with the sample
/// description and the moof as the data's base, `tfdt`, a version 1 `trun` with each sample's
/// duration, size, flags and signed composition offset) and an `mdat` holding its tracks'
/// samples in `traf` order. Edit lists as the progressive file's. Pure: the caller writes the
/// pieces, the samples' bytes from its sources.
public struct FragmentedMP4: Sendable {
    /// The tracks, in file order.
    public let tracks: [MP4Track]
    /// Seconds a fragment spans at least (it ends at the next cut point after that).
    public let fragmentDuration: Double

    /// A file of `tracks` (none empty), fragmented about every `fragmentDuration` seconds.
    public init(tracks: [MP4Track], fragmentDuration: Double = 2) {
        self.tracks = tracks
        self.fragmentDuration = fragmentDuration
    }

    /// The file as pieces in order, and its size.
    /// - Throws: `malformed-elementary-stream` when there is no track or a track has no sample.
    public func layout() throws(MediaError) -> (pieces: [ProgressiveMP4.Piece], fileSize: UInt64) {
        guard !tracks.isEmpty, tracks.allSatisfy({ !$0.samples.isEmpty }) else {
            throw MediaError(.malformedElementaryStream, "An MP4 file needs at least one track, each with samples.")
        }
        var pieces: [ProgressiveMP4.Piece] = [.bytes(header())]
        var next = [Int](repeating: 0, count: tracks.count)
        for (sequence, end) in cuts().enumerated() {
            var runs: [ProgressiveMP4.Chunk] = []
            for (index, track) in tracks.enumerated() {
                let first = next[index]
                var last = first
                var bytes: UInt64 = 0
                while last < track.samples.count, Self.seconds(track.samples[last].decodeTime, track) < end,
                      track.samples[last].description == track.samples[first].description {
                    bytes += UInt64(track.samples[last].size)
                    last += 1
                }
                if last > first { runs.append(ProgressiveMP4.Chunk(track: index, samples: first..<last, byteCount: bytes)) }
                next[index] = last
            }
            guard !runs.isEmpty else { continue }
            pieces.append(.bytes(fragmentHeader(runs, sequence: UInt32(sequence + 1))))
            pieces += runs.map(ProgressiveMP4.Piece.samples)
        }
        precondition(zip(next, tracks).allSatisfy { $0 == $1.samples.count }, "every sample is in a fragment")
        return (pieces, pieces.reduce(0) { $0 + $1.byteCount })
    }

    /// Where fragments end, in seconds of decode time: after `fragmentDuration` at a sync sample
    /// of the first video track (else of the first track), and at every sample description
    /// change of any track; the last ends after everything.
    public func cuts() -> [Double] {
        let lead = tracks.firstIndex { $0.media.isVideo } ?? 0
        var cuts: Set<Double> = []
        var start = Self.seconds(tracks[lead].samples[0].decodeTime, tracks[lead])
        for sample in tracks[lead].samples where sample.isSync {
            let time = Self.seconds(sample.decodeTime, tracks[lead])
            if time - start >= fragmentDuration {
                cuts.insert(time)
                start = time
            }
        }
        for track in tracks {
            for (previous, sample) in zip(track.samples, track.samples.dropFirst()) where sample.description != previous.description {
                cuts.insert(Self.seconds(sample.decodeTime, track))
            }
        }
        return cuts.sorted() + [.infinity]
    }

    static func seconds(_ ticks: Int64, _ track: MP4Track) -> Double { Double(ticks) / Double(track.timescale) }

    /// `ftyp` (iso6 first) and the `moov` with empty sample tables and an `mvex`: what comes
    /// before the movie fragments; with a `free` box after them up to a multiple of `multiple`
    /// bytes when it is not one (a filesystem block: it goes in front of streamed fragments).
    public func header(multiple: Int = 1) -> [UInt8] {
        let header = ProgressiveMP4.fileType(audioOnly: !tracks.contains { $0.media.isVideo }, fragmented: true)
            + ProgressiveMP4(tracks: tracks).movie(chunks: [], firstOffset: 0, wide: false, fragmented: true)
        let multiple = max(1, multiple)
        var padding = (multiple - header.count % multiple) % multiple
        if padding > 0, padding < 8 { padding += multiple }
        return header + MP4BoxWriter.free(padding)
    }

    /// The `moof` of movie fragment `sequence` holding `run` alone (one track's samples, one
    /// sample description) and the header of its `mdat`: `headerSize(samples:payload:)` bytes.
    public func fragment(_ run: ProgressiveMP4.Chunk, sequence: UInt32) -> [UInt8] {
        fragmentHeader([run], sequence: sequence)
    }

    /// The bytes of `fragment(_:sequence:)` for a run of `samples` samples of `payload` bytes:
    /// the `moof` (`mfhd`; one `traf` with `tfhd`, `tfdt` v1 and a v1 `trun` of 16 bytes a
    /// sample) and the `mdat` header — fixed before the samples' timing is known.
    public static func headerSize(samples: Int, payload: UInt64) -> Int {
        92 + 16 * samples + MP4BoxWriter.mediaDataHeader(payload: payload).count
    }

    /// `moof` for `runs` (one per track, in order) and the header of the `mdat` after it.
    private func fragmentHeader(_ runs: [ProgressiveMP4.Chunk], sequence: UInt32) -> [UInt8] {
        let payload = runs.reduce(0) { $0 + $1.byteCount }
        let mdat = MP4BoxWriter.mediaDataHeader(payload: payload)
        var size = 0
        var moof: [UInt8] = []
        for _ in 0..<2 {   // the data offsets depend on the moof's own size, which they do not change
            moof = movieFragment(runs, sequence: sequence, dataStart: UInt64(size + mdat.count))
            size = moof.count
        }
        return moof + mdat
    }

    private func movieFragment(_ runs: [ProgressiveMP4.Chunk], sequence: UInt32, dataStart: UInt64) -> [UInt8] {
        var writer = MP4BoxWriter()
        var offset = dataStart
        writer.box("moof") { moof in
            moof.box("mfhd", version: 0) { $0.u32(sequence) }
            for run in runs {
                let track = tracks[run.track]
                let origin = track.samples[0].decodeTime
                // The moof is the base of the data offsets; the sample description is this run's.
                moof.box("traf") { traf in
                    traf.box("tfhd", version: 0, flags: 0x02_0002) { box in
                        box.u32(UInt32(run.track + 1))
                        box.u32(UInt32(track.samples[run.samples.lowerBound].description) + 1)
                    }
                    traf.box("tfdt", version: 1) { $0.u64(UInt64(track.samples[run.samples.lowerBound].decodeTime - origin)) }
                    // data-offset, then each sample's duration, size, flags and composition offset.
                    traf.box("trun", version: 1, flags: 0x00_0F01) { box in
                        box.u32(UInt32(run.samples.count))
                        box.u32(UInt32(offset))
                        for index in run.samples {
                            let sample = track.samples[index]
                            box.u32(UInt32(clamping: track.duration(of: index)))
                            box.u32(sample.size)
                            box.u32(sample.isSync ? 0x0200_0000 : 0x0101_0000)   // depends on nothing, or a non-sync sample that depends
                            box.u32(UInt32(bitPattern: sample.compositionOffset))
                        }
                    }
                }
                offset += run.byteCount
            }
        }
        return writer.bytes
    }
}
