extension ProgressiveMP4 {
    /// The `moov` box: `mvhd`, then a `trak` per track whose chunk offsets start at
    /// `firstOffset` in `chunks` order (`co64` when `wide`). `fragmented`: the tracks' sample
    /// tables are empty (their samples are in movie fragments) and `mvex` follows, `mehd` with
    /// the movie's duration and a `trex` per track.
    func movie(chunks: [Chunk], firstOffset: UInt64, wide: Bool, fragmented: Bool = false) -> [UInt8] {
        var offsets = [[UInt64]](repeating: [], count: tracks.count)
        var position = firstOffset
        for chunk in chunks {
            offsets[chunk.track].append(position)
            position += chunk.byteCount
        }
        let movieDuration = tracks.map { editDuration($0) }.max() ?? 0
        var writer = MP4BoxWriter()
        writer.box("moov") { moov in
            let long = movieDuration > UInt64(UInt32.max)
            moov.box("mvhd", version: long ? 1 : 0) { box in
                Self.times(&box, long: long, timescale: Self.movieTimescale, duration: movieDuration)
                box.u32(0x0001_0000)   // rate 1.0
                box.u16(0x0100)   // volume 1.0
                box.zeros(10)
                box.unityMatrix()
                box.zeros(24)   // pre_defined
                box.u32(UInt32(tracks.count + 1))   // next_track_ID
            }
            for (index, track) in tracks.enumerated() {
                self.track(track, id: UInt32(index + 1), chunks: chunks.filter { $0.track == index }, offsets: offsets[index], wide: wide,
                           fragmented: fragmented, into: &moov)
            }
            if fragmented {
                moov.box("mvex") { mvex in
                    mvex.box("mehd", version: long ? 1 : 0) { box in if long { box.u64(movieDuration) } else { box.u32(UInt32(movieDuration)) } }
                    for index in tracks.indices {
                        mvex.box("trex", version: 0) { box in
                            box.u32(UInt32(index + 1))
                            box.u32(1)   // default_sample_description_index
                            box.zeros(12)   // default duration, size, flags: every trun says its own
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// Where the track's presentation sits on the movie timeline (movie ticks): the time before
    /// it (an empty edit), and its length.
    private func edit(_ track: MP4Track) -> (empty: UInt64, length: UInt64, mediaTime: Int64) {
        let (start, end) = track.presentation!
        let first = track.samples[0].decodeTime
        let scale = Double(Self.movieTimescale) / Double(track.timescale)
        let shown = max(start, 0)
        return (UInt64((Double(shown) * scale).rounded()), UInt64((Double(end - shown) * scale).rounded()), shown - first)
    }

    private func editDuration(_ track: MP4Track) -> UInt64 {
        let edit = edit(track)
        return edit.empty + edit.length
    }

    private func track(_ track: MP4Track, id: UInt32, chunks: [Chunk], offsets: [UInt64], wide: Bool, fragmented: Bool, into moov: inout MP4BoxWriter) {
        let edit = edit(track)
        let isVideo = track.media.isVideo, isAudio = track.media.isAudio
        // A fragmented track's media lies in its fragments: its own box says none.
        let mediaDuration = fragmented ? 0 : UInt64(track.samples.last!.decodeTime - track.samples[0].decodeTime + track.duration(of: track.samples.count - 1))
        moov.box("trak") { trak in
            let long = edit.empty + edit.length > UInt64(UInt32.max)
            trak.box("tkhd", version: long ? 1 : 0, flags: track.isEnabled ? 0x3 : 0x2) { box in
                box.zeros(long ? 16 : 8)   // creation, modification
                box.u32(id)
                box.u32(0)
                if long { box.u64(edit.empty + edit.length) } else { box.u32(UInt32(edit.empty + edit.length)) }
                box.zeros(8)
                box.u16(0)   // layer
                box.u16(track.alternateGroup)
                box.u16(isAudio ? 0x0100 : 0)   // volume
                box.u16(0)
                box.unityMatrix()
                // The largest picture of its sample descriptions (players scale the others to it).
                let sizes = track.descriptions.compactMap(\.pictureSize)
                box.u32(UInt32(clamping: sizes.map(\.0).max() ?? 0) << 16)
                box.u32(UInt32(clamping: sizes.map(\.1).max() ?? 0) << 16)
            }
            trak.box("edts") { edts in
                let entries = (edit.empty > 0 ? [(edit.empty, Int64(-1))] : []) + [(edit.length, edit.mediaTime)]
                let wideEdit = entries.contains { $0.0 > UInt64(UInt32.max) || $0.1 > Int64(Int32.max) || $0.1 < Int64(Int32.min) }
                edts.box("elst", version: wideEdit ? 1 : 0) { box in
                    box.u32(UInt32(entries.count))
                    for (duration, mediaTime) in entries {
                        if wideEdit {
                            box.u64(duration)
                            box.u64(UInt64(bitPattern: mediaTime))
                        } else {
                            box.u32(UInt32(duration))
                            box.u32(UInt32(bitPattern: Int32(mediaTime)))
                        }
                        box.u32(0x0001_0000)   // media_rate 1
                    }
                }
            }
            trak.box("mdia") { mdia in
                let longMedia = mediaDuration > UInt64(UInt32.max)
                mdia.box("mdhd", version: longMedia ? 1 : 0) { box in
                    Self.times(&box, long: longMedia, timescale: track.timescale, duration: mediaDuration)
                    box.u16(Self.packedLanguage(track.language))
                    box.u16(0)
                }
                mdia.box("hdlr", version: 0) { box in
                    box.u32(0)
                    box.fourCC(track.media.handler)
                    box.zeros(12)
                    box.append(Array((track.name ?? (isVideo ? "VideoHandler" : isAudio ? "SoundHandler" : "SubtitleHandler")).utf8) + [0])
                }
                mdia.box("minf") { minf in
                    if isVideo {
                        minf.box("vmhd", version: 0, flags: 1) { $0.zeros(8) }
                    } else if isAudio {
                        minf.box("smhd", version: 0) { $0.zeros(4) }
                    } else {
                        minf.box("nmhd", version: 0) { _ in }   // timed text: a null media header
                    }
                    minf.box("dinf") { dinf in
                        dinf.box("dref", version: 0) { dref in
                            dref.u32(1)
                            dref.box("url ", version: 0, flags: 1) { _ in }
                        }
                    }
                    minf.box("stbl") { stbl in
                        if fragmented {
                            MP4SampleTables.writeEmpty(track, into: &stbl)
                        } else {
                            MP4SampleTables.write(track, chunks: chunks, offsets: offsets, wide: wide, into: &stbl)
                        }
                    }
                }
            }
        }
    }

    /// Creation and modification time (0: unknown), `timescale` and `duration`, 32 or 64 bits.
    private static func times(_ box: inout MP4BoxWriter, long: Bool, timescale: UInt32, duration: UInt64) {
        box.zeros(long ? 16 : 8)
        box.u32(timescale)
        if long { box.u64(duration) } else { box.u32(UInt32(duration)) }
    }

    /// An ISO 639-2/T code packed as `mdhd` holds it: three 5-bit letters (`und` for anything
    /// that is not three lower-case letters).
    public static func packedLanguage(_ code: String) -> UInt16 {
        let letters = Array(code.utf8)
        let usable = letters.count == 3 && letters.allSatisfy { (0x61...0x7A).contains($0) }
        return (usable ? letters : Array("und".utf8)).reduce(0) { $0 << 5 | UInt16($1 - 0x60) }
    }
}
