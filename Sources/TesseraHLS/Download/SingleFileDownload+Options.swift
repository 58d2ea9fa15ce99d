import TesseraSupport

extension SingleFileDownload {
    /// Job settings. Every default is a bound. Retries, timeouts and per-purpose limits come
    /// from the job's `HLSClient`.
    @dynamicMemberLookup
    public struct Options: Sendable {
        /// What to do when the destination exists. Default `.refuse`.
        public var overwrite: OverwritePolicy = .refuse
        /// The variant taken from a multivariant playlist. Default `.best`.
        public var variant: VariantPreference = .best
        /// What the player can play: variants that need more are not taken. Default: anything.
        public var capabilities = PlaybackCapabilities()
        /// Follow the presentation's Content Steering (EXT-X-CONTENT-STEERING): the variant is
        /// taken on the steering pathway, the manifest is reloaded while the job runs, and a
        /// pathway whose playlist or media fails is left for the next one (the variant of the same
        /// STABLE-VARIANT-ID, which must match the plan). Default true.
        public var steering = true
        /// Fetch the multivariant playlist's identity AES-128 EXT-X-SESSION-KEYs (at most 8) while
        /// the media playlist loads; a key is used only when the selected media names the same
        /// URL. Default false.
        public var prefetchSessionKeys = false
        /// How long a failed pathway is avoided. Default 300 s.
        public var steeringPenalty: Duration = .seconds(300)
        /// Continue from a checkpoint of an earlier run for the same plan. Default true. When
        /// false an existing checkpoint is discarded (a new one is still written).
        public var resumes = true
        /// Requests in flight, bytes held, sizes, checkpoints, free space and deadlines; each
        /// reads and writes as a property of the options (`options.parallelism`).
        public var bounds = TransferBounds()
        /// The defaults.
        public init() {}

        /// The bound `keyPath` names.
        public subscript<Value>(dynamicMember keyPath: WritableKeyPath<TransferBounds, Value>) -> Value {
            get { bounds[keyPath: keyPath] }
            set { bounds[keyPath: keyPath] = newValue }
        }
    }
}
