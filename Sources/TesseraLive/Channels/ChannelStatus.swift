/// Where one channel of a `ChannelRecorder` is (`ChannelRecorder.status`): its state, the
/// recording in progress, totals over every recording of it in this run, its errors and its
/// health over the last hour. URL-free beyond the redacted source (no query, no user-info).
public struct ChannelStatus: Sendable, Equatable, Encodable {
    /// A channel's state.
    public enum State: String, Sendable, Equatable, Encodable {
        /// Not started yet (starts are spread out).
        case waiting
        /// Recording.
        case recording
        /// Waiting to try again after a failure (`retryAt`).
        case retrying
        /// Recorded to its end (its duration or EXT-X-ENDLIST).
        case finished
        /// Stopped (the recorder stopped, or the channel left the list), what it had committed.
        case stopped
        /// Failed, not tried again (`ChannelFailurePolicy.stop`, or a destination another process
        /// holds).
        case failed
    }

    /// The channel's name.
    public let name: String
    /// Its source, redacted (scheme, host, port and path).
    public let source: String
    /// Its state.
    public var state = State.waiting
    /// The folder name of the recording in progress or the last one.
    public var destination: String?
    /// Recordings started in this run.
    public var attempts = 0
    /// Recordings committed in this run.
    public var committed = 0
    /// Segments written, gaps declared, playlist reloads retried, restarts of the source recorded
    /// through — over every recording of the channel in this run.
    public var segments = 0
    public var gaps = 0
    public var retries = 0
    public var restarts = 0
    /// Seconds of media and media bytes written, over every recording in this run.
    public var duration = 0.0
    public var bytes: UInt64 = 0
    /// Seconds of listed media not yet written, as of the last segment; nil when not recording.
    public var edgeLag: Double?
    /// When the last segment was written (seconds since 1970).
    public var lastSegmentAt: Double?
    /// Failures and early ends, and the last one's code and message (URLs redacted).
    public var errors = 0
    public var lastErrorCode: String?
    public var lastError: String?
    /// When the next try starts (seconds since 1970), while `retrying`.
    public var retryAt: Double?
    /// The last hour, minute by minute.
    public var health: ChannelHealth

    /// A channel not started yet, its health strip ending at `now` (seconds since 1970).
    public init(name: String, source: String, now: Double) {
        self.name = name
        self.source = source
        health = ChannelHealth(now: now)
    }
}
