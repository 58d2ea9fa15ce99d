import TesseraMedia
import TesseraSupport

extension MovieMux {
    /// Where the movie's time 0 lies on the transport stream's clock (90 kHz): 1.4 s, as ffmpeg
    /// starts, so that pictures decoded before they are shown and the PCR ahead of them stay
    /// positive.
    static let transportStreamStart: Int64 = 126_000

    /// Writes the tracks into `output` as one MPEG-TS program (`TransportStreamWriter`) instead of
    /// an MP4: the same first pass and timeline (`timed`, else made here), then every track's
    /// samples read again and written in decode order across the tracks, each on the 90 kHz
    /// clock from `transportStreamStart` (a track with negative composition offsets decoded
    /// earlier by the largest, so that no sample is shown before it is decoded); the file passes the transport stream validator as it is
    /// written. Returns what `write` returns.
    /// - Throws: as `write`; `unsupported` for a track MPEG-TS does not carry here (timed text; a
    ///   copied sample entry of another codec) or more than `TransportStreamWriter.maximumTracks`;
    ///   `malformed-media` when the written stream does not validate.
    func writeTransportStream(to output: DurableFile, timed: MovieTimingPass.Result? = nil) throws(HLSError)
        -> (byteCount: UInt64, sha256: SHA256Digest, tracks: [MP4Track], clock: MovieClock) {
        let first: MovieTimingPass.Result
        if let timed { first = timed } else { first = try firstPass() }
        let tracks = first.tracks
        var writer = try Self.media(at: "the transport stream") { () throws(MediaError) in
            try TransportStreamWriter(tracks: tracks.map { TransportStreamWriter.Track(descriptions: $0.descriptions, language: $0.language) })
        }
        func clock(_ ticks: Int64, of track: Int) -> Int64 {
            let scale = Int64(tracks[track].timescale)
            guard scale != 90_000 else { return ticks }
            let scaled = ticks * 90_000   // to the nearest 90 kHz tick
            return (scaled >= 0 ? scaled + scale / 2 : scaled - scale / 2) / scale
        }
        // A track shown before it is decoded (negative composition offsets, ISO/IEC 14496-12
        // `trun` version 1) decodes that much earlier: MPEG-TS requires DTS ≤ PTS.
        let leads = tracks.indices.map { track in max(0, -clock(Int64(tracks[track].samples.lazy.map(\.compositionOffset).min() ?? 0), of: track)) }
        func decodeTime(_ track: Int, _ index: Int) -> Int64 { clock(tracks[track].samples[index].decodeTime, of: track) - leads[track] }
        let earliest = tracks.indices.map { decodeTime($0, 0) }.min() ?? 0
        let start = Self.transportStreamStart + max(0, -earliest)
        var sink = try MovieFileSink(output)
        sink.validator = TSValidator()
        var streams = first.order.map { SampleStream(key: $0, source: sources[$0.source]) }
        var next = Array(repeating: 0, count: tracks.count)
        var ended = false
        // Each 4 MiB of the stream made while the last is hashed, checked and written.
        try sink.pipe(fillIsLight: false) { (buffer: inout [UInt8]) throws(HLSError) in
            while buffer.count < MovieFileSink.chunkBytes, !ended {
                // The track whose next sample decodes first (the earlier track on a tie: video first).
                var chosen: (track: Int, time: Int64)?
                for track in tracks.indices where next[track] < tracks[track].samples.count {
                    let time = decodeTime(track, next[track])
                    if chosen.map({ time < $0.time }) ?? true { chosen = (track, time) }
                }
                guard let (track, time) = chosen else {
                    writer.finish()
                    buffer += writer.take()
                    ended = true
                    break
                }
                let sample = tracks[track].samples[next[track]]
                next[track] += 1
                let data = try streams[track].next(size: sample.size)
                let decode = start + time
                let shown = start + clock(sample.decodeTime + Int64(sample.compositionOffset), of: track)
                try Self.media(at: "the transport stream") { () throws(MediaError) in
                    try writer.write(data, track: track, description: Int(sample.description), decodeTime: decode, presentationTime: shown, isSync: sample.isSync)
                }
                buffer += writer.take()
            }
        }
        let file = try sink.finish()
        if var validator = sink.validator, let finding = validator.finish().first(where: { $0.severity == .error }) {
            throw HLSError(.malformedMedia, "The muxed transport stream is not valid: \(finding)")
        }
        return (file.byteCount, file.sha256, tracks, first.clock)
    }
}
