extension WebVTTTrack {
    /// Where a discontinuity run of a subtitle playlist starts: its first segment's
    /// X-TIMESTAMP-MAP and its start on the playlist's timeline (the EXTINFs before it).
    public struct RunStart: Sendable {
        /// The discontinuity run.
        public let run: Int
        /// Its first segment's X-TIMESTAMP-MAP: the MPEG-2 time and the cue time it maps.
        public let timestampMap: (mpegts: UInt64, local: UInt64)
        /// Seconds from the playlist's first segment.
        public let start: Double

        /// A run start.
        public init(run: Int, timestampMap: (mpegts: UInt64, local: UInt64), start: Double) {
            self.run = run
            self.timestampMap = timestampMap
            self.start = start
        }
    }

    /// The clock of a subtitle track written without media (a `.vtt` or `.srt` of its own), on
    /// the playlist's timeline: the first run's map point (its MPEGTS, the media's time at the
    /// segment's start as packagers write it) is time 0; a later run whose map keeps the same
    /// clock (the same MPEG-2 time for cue time 0) continues it, one whose clock changed has its
    /// map point at the run's start. Within a run, times are exact.
    public static func playlistClock(_ runs: [RunStart]) -> MovieClock {
        var references: [Int32: (raw: UInt64, value: Int64)] = [:]
        var offsets: [Int32: Int64] = [:]
        var previous: (origin: UInt64, reference: (raw: UInt64, value: Int64), offset: Int64)?
        for run in runs {
            let (mpegts, local) = run.timestampMap
            let origin = (mpegts &- local &* 90) & MPEGTimestamp.mask
            let key = Int32(clamping: run.run)
            if let previous, previous.origin == origin {
                references[key] = previous.reference
                offsets[key] = previous.offset
                continue
            }
            let reference = (raw: mpegts & MPEGTimestamp.mask, value: Int64(0))
            let offset = Int64((run.start * 90_000).rounded())
            references[key] = reference
            offsets[key] = offset
            previous = (origin, reference, offset)
        }
        return MovieClock(references: references, offsets: offsets)
    }
}
