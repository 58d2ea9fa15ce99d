/// Where a recording is, after each resource written.
public struct RecordingProgress: Sendable, Equatable {
    /// Seconds of media written, gaps before them included.
    public let duration: Double
    /// Segments written.
    public let segments: Int
    /// Gaps so far (the recorder's and the origin's).
    public let gaps: Int
    /// Playlist reloads retried so far.
    public let retries: Int
    /// Media bytes written.
    public let bytes: UInt64
    /// Seconds of listed media not yet written (how far behind the live edge the files are).
    public let edgeLag: Double

    /// Progress as given.
    public init(duration: Double, segments: Int, gaps: Int, retries: Int, bytes: UInt64, edgeLag: Double) {
        self.duration = duration
        self.segments = segments
        self.gaps = gaps
        self.retries = retries
        self.bytes = bytes
        self.edgeLag = edgeLag
    }
}
