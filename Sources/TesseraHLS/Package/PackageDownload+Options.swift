import TesseraSupport

extension PackageDownload {
    /// Job settings. Every default is a bound. Retries, timeouts and per-purpose limits come
    /// from the job's `HLSClient`.
    @dynamicMemberLookup
    public struct Options: Sendable {
        /// What to do when the destination exists. Default `.refuse`.
        public var overwrite: OverwritePolicy = .refuse
        /// Which variant and renditions (audio, subtitles) the package holds, and on which
        /// pathway. Default: the best variant, its default audio and default subtitles.
        public var selection = SelectionPolicy()
        /// Add an I-frame stream: the pathway's playable I-frame variant of the chosen variant's
        /// RESOLUTION, else its highest-BANDWIDTH one. Default false.
        public var iFrames = false
        /// Continue from a checkpoint of an earlier run for the same plan. Default true.
        public var resumes = true
        /// Follow the presentation's Content Steering (EXT-X-CONTENT-STEERING): the tracks are
        /// taken on the steering pathway, which needs every one of them on every pathway (by
        /// STABLE-VARIANT-ID and STABLE-RENDITION-ID; else the plan is refused), the manifest is
        /// reloaded while the job runs, and a pathway whose playlist or media fails is left for
        /// the next one. Default true.
        public var steering = true
        /// How long a failed pathway is avoided. Default 300 s.
        public var steeringPenalty: Duration = .seconds(300)
        /// Requests in flight (default 8 here), bytes held, sizes, checkpoints, free space and
        /// deadlines; each reads and writes as a property of the options.
        public var bounds: TransferBounds = {
            var bounds = TransferBounds()
            bounds.parallelism = 8
            return bounds
        }()
        /// The defaults.
        public init() {}

        /// The bound `keyPath` names.
        public subscript<Value>(dynamicMember keyPath: WritableKeyPath<TransferBounds, Value>) -> Value {
            get { bounds[keyPath: keyPath] }
            set { bounds[keyPath: keyPath] = newValue }
        }
    }
}
