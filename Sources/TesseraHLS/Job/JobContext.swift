/// What `MediaJob` hands a planner's transfer beside the engine: the job's fetcher, its hidden
/// paths, and the job's one steering controller when the plan steers.
package struct JobContext: Sendable {
    package let fetcher: ResourceFetcher
    package let paths: DownloadPaths
    /// Running for the job (its manifest reloaded) while the transfer runs.
    package let steering: SteeringController?
}
