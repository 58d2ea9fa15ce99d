import TesseraMedia

extension MovieMux {
    /// First pass: every segment's access units timed on one `PresentationTimeline`
    /// (`MovieTimingPass`), read from their files.
    /// - Throws: `malformed-media`, `unsupported` (no stream the readers know), `destination-unwritable`.
    func firstPass() throws(HLSError) -> MovieTimingPass.Result {
        var pass = MovieTimingPass(sources: sources)
        while !pass.isComplete { try pass.take() }
        return try pass.finish()
    }

    /// The subtitle tracks on the movie's `clock` as timed-text tracks appended to `tracks`;
    /// returns their samples, held in memory, by track index.
    /// - Throws: `malformed-media` for a segment that is not WebVTT or a cue too long for a sample.
    func embedSubtitles(into tracks: inout [MP4Track], clock: MovieClock) throws(HLSError) -> [Int: [[UInt8]]] {
        var held: [Int: [[UInt8]]] = [:]
        for subtitle in subtitles {
            let cues = try MovieSubtitles.cues(of: subtitle.segments, clock: clock).plainCues
            guard let made = try Self.media(at: "the subtitles", { () throws(MediaError) in try TimedText.track(cues) }) else { continue }
            var track = made.track
            track.language = subtitle.language
            track.name = subtitle.name
            track.isEnabled = subtitle.isEnabled
            track.alternateGroup = 2
            held[tracks.count] = made.samples
            tracks.append(track)
        }
        return held
    }
}
