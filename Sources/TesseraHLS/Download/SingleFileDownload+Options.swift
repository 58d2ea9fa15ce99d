import TesseraHTTP
import TesseraSupport

extension SingleFileDownload {
    /// Job settings. Every default is a bound.
    public struct Options: Sendable {
        /// What to do when the destination exists. Default `.refuse`.
        public var overwrite: OverwritePolicy = .refuse
        /// The variant taken from a multivariant playlist. Default `.best`.
        public var variant: VariantPreference = .best
        /// Requests in flight, and resources held waiting for their turn to be written (1…32).
        /// Default 6.
        public var parallelism = 6
        /// Continue from a checkpoint of an earlier run for the same plan. Default true. When
        /// false an existing checkpoint is discarded (a new one is still written).
        public var resumes = true
        /// Retries of every request (playlists, keys, media): attempts, backoff, Retry-After.
        /// Default: 4 attempts.
        public var retry: RetryPolicy = {
            var policy = RetryPolicy()
            policy.maximumAttempts = 4
            return policy
        }()
        /// Timeouts and buffering of each media request.
        public var segmentLimits = TransferLimits()
        /// Bytes of resources in flight or waiting to be written, beyond which no new request
        /// starts (one always runs). Bounds memory when segments are large: 1 MB segments still run
        /// six at a time, 20 MB ones one at a time. Default 24 MiB.
        public var maximumBufferedBytes: UInt64 = 24 << 20
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
        /// The defaults.
        public init() {}
    }
}
