/// Muxes MPEG-TS segments held in memory into one MP4 in memory (or, `rewrite`, one segment into one MPEG-TS program): every video (H.264, H.265) and
/// audio (AAC, AC-3, E-AC-3, MPEG audio) stream a track (in the order the streams first appear),
/// on one `PresentationTimeline`, laid out by `ProgressiveMP4` (or, `fragmented`, `FragmentedMP4`). For clips and tests; a file of any size is muxed from files by
/// TesseraHLS's `MovieMux` in two passes with one segment in memory.
public enum TransportStreamMux {
    /// The MP4 file of `segments`, each with its discontinuity run.
    /// - Throws: as `ElementaryStreamReader.read`, `PresentationTimeline.append` and
    ///   `ProgressiveMP4.layout`.
    public static func mux(_ segments: [(bytes: [UInt8], run: Int)], fragmented: Bool = false) throws(MediaError) -> (file: [UInt8], tracks: [MP4Track]) {
        var reader = ElementaryStreamReader()
        var timeline = PresentationTimeline()
        var tracks: [ElementaryStreamReader.Kind: Int] = [:]
        var samples: [[[UInt8]]] = []
        for (bytes, run) in segments {
            for unit in try reader.read(segment: bytes) {
                let track = tracks[unit.kind] ?? timeline.addTrack(unit.media)
                if tracks[unit.kind] == nil {
                    tracks[unit.kind] = track
                    samples.append([])
                }
                try timeline.append(unit.unit, size: unit.unit.size, duration: unit.duration, media: unit.media, hidden: unit.hidden, to: track, run: run)
                samples[track].append(unit.unit.data)
            }
        }
        let movie = try timeline.movieTracks()
        let (pieces, size) = fragmented ? try FragmentedMP4(tracks: movie).layout() : try ProgressiveMP4(tracks: movie).layout().sized
        var file: [UInt8] = []
        file.reserveCapacity(Int(size))
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): file += bytes
            case .samples(let chunk): for index in chunk.samples { file += samples[chunk.track][index] }
            }
        }
        return (file, movie)
    }

    /// The access units of `segment` (one transport stream) written again through
    /// `TransportStreamWriter` as one program, in their order: a track per kind with every
    /// media the kind's units name. For clips, tests and fuzzing.
    /// - Throws: as `ElementaryStreamReader.read` and `TransportStreamWriter`.
    public static func rewrite(_ segment: [UInt8]) throws(MediaError) -> [UInt8] {
        var reader = ElementaryStreamReader()
        let units = try reader.read(segment: segment)
        let kinds = [ElementaryStreamReader.Kind.video, .audio].filter { kind in units.contains { $0.kind == kind } }
        guard !kinds.isEmpty else { return [] }
        var descriptions: [[MP4Track.Media]] = kinds.map { _ in [] }
        for unit in units {
            let track = kinds.firstIndex(of: unit.kind)!
            if !descriptions[track].contains(unit.media) { descriptions[track].append(unit.media) }
        }
        var writer = try TransportStreamWriter(tracks: descriptions.map { TransportStreamWriter.Track(descriptions: $0, language: "und") })
        for unit in units {
            let track = kinds.firstIndex(of: unit.kind)!
            try writer.write(unit.unit.data, track: track, description: descriptions[track].firstIndex(of: unit.media)!,
                             decodeTime: Int64(unit.unit.decodeTime), presentationTime: Int64(unit.unit.presentationTime), isSync: unit.unit.isSync)
        }
        writer.finish()
        return writer.take()
    }
}
