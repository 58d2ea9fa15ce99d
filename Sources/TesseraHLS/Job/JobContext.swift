/// What `MediaJob` hands a planner's staging, output and transfer: the job's playlist reader
/// (its fetcher), its hidden paths, the client's clock, the transfer engine the output is fed
/// through, and the job's one steering controller when the plan steers.
package struct JobContext: Sendable {
    /// The one playlist reader, on the job's fetcher.
    package let loader: PlaylistLoader
    package let paths: JobPaths
    package let clock: any Clock<Duration>
    /// The engine the transfer runs the plan's fetches through.
    package let engine: TransferEngine
    /// Running for the job (its manifest reloaded) while the transfer runs.
    package let steering: SteeringController?
}
