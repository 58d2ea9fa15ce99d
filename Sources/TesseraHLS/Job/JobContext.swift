/// What `MediaJob` hands a planner's staging, output and transfer: the job's fetcher, its hidden
/// paths, the client's clock, and the job's one steering controller when the plan steers.
package struct JobContext: Sendable {
    package let fetcher: ResourceFetcher
    package let paths: JobPaths
    package let clock: any Clock<Duration>
    /// Running for the job (its manifest reloaded) while the transfer runs.
    package let steering: SteeringController?
}
