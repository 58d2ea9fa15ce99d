import TesseraSupport

extension SingleFileDownload {
    /// Job settings. Every default is a bound. Retries, timeouts and per-purpose limits come
    /// from the job's `HLSClient`.
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
        /// Requests in flight, and resources held waiting for their turn to be written (1…32).
        /// Default 6.
        public var parallelism = 6
        /// Continue from a checkpoint of an earlier run for the same plan. Default true. When
        /// false an existing checkpoint is discarded (a new one is still written).
        public var resumes = true
        /// Bytes of resources in flight or waiting to be written, beyond which no new request
        /// starts (one always runs); also the most resource bytes held in memory at once, beyond
        /// which bodies go to spill files beside the destination. Bounds memory whatever the
        /// origin sends. Default 24 MiB.
        public var maximumBufferedBytes: UInt64 = 24 << 20
        /// A resource larger than this is kept in a spill file rather than memory. Default 8 MiB.
        public var maximumInMemoryResourceBytes: UInt64 = 8 << 20
        /// The largest resource (segment or initialization section). Default 256 MiB.
        public var maximumResourceBytes: UInt64 = 256 << 20
        /// The largest output. Default 1 TiB.
        public var maximumJobBytes: UInt64 = 1 << 40
        /// The largest request made by coalescing contiguous byte ranges. Default 8 MiB.
        public var maximumCoalescedBytes: UInt64 = 8 << 20
        /// Bytes written between durable checkpoints (each costs an fsync). Default 8 MiB.
        public var checkpointBytes: UInt64 = 8 << 20
        /// Free-space handling on the destination volume. Default `.required`.
        public var capacity: CapacityPolicy = .required
        /// The free space of the destination's volume, for the capacity policy: `statvfs` by
        /// default; a caller (a test) may give another probe.
        public var freeSpace: @Sendable (String) -> UInt64? = FreeSpace.available
        /// How long each resource of known size may take (above libcurl, on the client's
        /// clock); nil for none. Default 30 s + its size at 16 KiB/s.
        public var resourceDeadline: ResourceDeadline? = ResourceDeadline()
        /// The defaults.
        public init() {}
    }
}
