extension SingleFileDownload {
    /// What a download job reports while it runs, in order: the lifecycle every media job shares,
    /// with the plan's summary and the file's progress.
    public typealias Event = JobEvent<DownloadPlanSummary, DownloadProgress, Never>
}
