extension SingleFileDownload {
    /// What a download job reports while it runs, in order. URLs are in event form (query values
    /// redacted); keys and headers never appear.
    public enum Event: Sendable, Equatable {
        /// The plan is made (after the keys were fetched, before any media byte).
        case planned(DownloadPlanSummary)
        /// An existing checkpoint was verified: these resources and bytes are kept.
        case resumed(resources: Int, bytes: UInt64)
        /// An existing checkpoint could not be used; the job starts over.
        case checkpointDiscarded(reason: String)
        /// A request failed and is retried after `delay`.
        case retry(url: String, attempt: Int, delay: Duration, reason: String)
        /// Resources were written.
        case progress(DownloadProgress)
        /// Content Steering acted (pathway IDs only).
        case steering(SteeringEvent)
        /// Something the job works around and the user should know (one sentence).
        case warning(String)
    }
}
