extension PackageDownload {
    /// What a package job reports while it runs, in order. URLs are in event form (query values
    /// redacted); keys and headers never appear.
    public enum Event: Sendable, Equatable {
        /// The plan is made, before any media byte.
        case planned(PackagePlanSummary)
        /// An existing checkpoint was verified: these resources and bytes are kept.
        case resumed(resources: Int, bytes: UInt64)
        /// An existing checkpoint could not be used (or no longer matches); the job starts over.
        case checkpointDiscarded(reason: String)
        /// A request failed and is retried after `delay`.
        case retry(url: String, attempt: Int, delay: Duration, reason: String)
        /// Resources were written: the whole package, and each track's resources done.
        case progress(DownloadProgress, tracks: [String: Int])
        /// Content Steering acted (pathway IDs only).
        case steering(SteeringEvent)
        /// Something the job works around and the user should know (one sentence).
        case warning(String)
    }
}
