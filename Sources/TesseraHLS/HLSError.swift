/// The one error type of `TesseraHLS`. `message` names what failed and where (URLs redacted,
/// never key bytes); `cause` keeps the lower module's error.
public struct HLSError: Error, Sendable, CustomStringConvertible {
    /// A stable, extensible error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Stable text.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The playlist could not be parsed.
        public static let invalidPlaylist = Code("invalid-playlist")
        /// A media playlist was needed and a multivariant playlist was given.
        public static let multivariantPlaylist = Code("multivariant-playlist")
        /// The layout is refused before any media byte is fetched (live, SAMPLE-AES, fMP4, gaps…).
        public static let unsupported = Code("unsupported")
        /// A resource could not be fetched (network, timeout, TLS…).
        public static let fetchFailed = Code("fetch-failed")
        /// A resource was answered with a non-success HTTP status.
        public static let httpStatus = Code("http-status")
        /// A key is not exactly 16 bytes.
        public static let badKey = Code("bad-key")
        /// Decryption failed (wrong key or IV, or a corrupt segment).
        public static let decryptFailed = Code("decrypt-failed")
        /// The media failed its structural check.
        public static let malformedMedia = Code("malformed-media")
        /// The destination exists and overwriting was not asked for.
        public static let destinationExists = Code("destination-exists")
        /// The destination cannot be written (missing folder, permissions, full disk).
        public static let destinationUnwritable = Code("destination-unwritable")
        /// The job was cancelled.
        public static let cancelled = Code("cancelled")
        /// A resource or the whole job went past its byte budget.
        public static let budgetExceeded = Code("budget-exceeded")
        /// The destination volume has too little free space (capacity policy `.required`).
        public static let insufficientSpace = Code("insufficient-space")
        /// Another job (in this process or another) is writing the same destination.
        public static let destinationBusy = Code("destination-busy")
        /// No variant of the multivariant playlist matches the preference.
        public static let noMatchingVariant = Code("no-matching-variant")
        /// A resource changed on the server (its validator differs from the checkpoint's).
        public static let sourceChanged = Code("source-changed")
        /// A steering manifest that is not JSON of the steering format, or breaks its rules.
        public static let invalidSteeringManifest = Code("invalid-steering-manifest")
        /// Session data, chapters or an asset list that is not of its format.
        public static let invalidExternalResource = Code("invalid-external-resource")
        /// A switch to another pathway found a playlist that does not match the plan.
        public static let pathwayMismatch = Code("pathway-mismatch")
        /// A recording ended before any segment was written: nothing was committed.
        public static let nothingRecorded = Code("nothing-recorded")
        /// The live window moved past media a recording had not fetched, and the recording was
        /// asked to fail rather than list a gap (`--fail-on-gap`): nothing was committed.
        public static let liveWindowAdvanced = Code("live-window-advanced")
        /// A live source stopped producing media: its playlist listed no new segment for the
        /// outage limit, though it may still answer.
        public static let sourceStopped = Code("source-stopped")
        /// A live source started again (its numbering went back, or a segment listed again is
        /// not the one recorded) and the recording was asked to end there (`--on-restart end`).
        public static let sourceRestarted = Code("source-restarted")
        /// A resume was insisted on and there is nothing to resume (no checkpoint, or one of
        /// another job).
        public static let noCheckpoint = Code("no-checkpoint")
        /// A channel list (`tessera record --channels`) that cannot be read or breaks its format:
        /// a bad name, a name given twice, a missing URL, a quote left open.
        public static let invalidChannelList = Code("invalid-channel-list")

        /// Whether a job that failed with this code keeps its partial file and checkpoint, so a
        /// later run resumes: transient failures (network, status, cancellation, a full or
        /// unwritable volume, a budget) do; wrong keys, bad media and refusals do not.
        public var keepsCheckpoint: Bool {
            [Code.fetchFailed, .httpStatus, .cancelled, .destinationUnwritable, .insufficientSpace, .budgetExceeded].contains(self)
        }
    }

    /// What went wrong.
    public let code: Code
    /// One sentence naming what failed and where.
    public let message: String
    /// The lower-level error, when there is one.
    public let cause: (any Error & Sendable)?

    package init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}
