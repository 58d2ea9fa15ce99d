extension MovieDownload {
    /// The file format a movie is muxed into.
    public enum Container: Sendable {
        /// ISO base media (MP4): progressive with the `moov` first, or fragmented.
        case mp4
        /// One MPEG-TS program (`.ts`, `.m2ts`): every track a PID, the subtitles beside it.
        case transportStream
    }
}
