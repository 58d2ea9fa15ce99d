#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// One kind of media job as `MediaJob` runs it: how its source is loaded and planned, what its
/// plan says to the lifecycle (fingerprint, sizes, steering), its output, how the transfer is fed
/// and reported, and its report. Download, package and recording are the planners.
package protocol JobPlanner: Sendable {
    /// A loaded and planned source.
    associatedtype Planned: Sendable
    /// Where the output stages its result.
    associatedtype Staging: JobStaging
    /// Where the resources go.
    associatedtype Output: JobOutput
    /// What the job returns.
    associatedtype Report: Sendable
    /// The `planned` event's payload.
    associatedtype Summary: Sendable
    /// The `progress` event's payload.
    associatedtype Progress: Sendable
    /// The `job` event's payload.
    associatedtype Notice: Sendable
    /// The job's events.
    typealias Event = JobEvent<Summary, Progress, Notice>

    /// The destination (locked by the runner while the job runs).
    var destination: URL { get }
    /// What the runner takes from the job's options.
    var settings: JobSettings { get }
    /// Whether a `source-changed` attempt is run again from the start (without resuming).
    var restartsWhenSourceChanges: Bool { get }

    /// Loads the source and plans, touching neither media nor the destination.
    func plan(_ loader: PlaylistLoader, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> Planned
    /// The `planned` event's payload.
    func summary(of planned: Planned) -> Summary
    /// The event saying what an output kept from an interrupted run (by default `resumed`).
    func resumed(_ restored: JobRestoration, output: Output) -> Event?
    /// The checkpoint's fingerprint: what a checkpoint must have been written for to be used.
    func fingerprint(of planned: Planned) -> String
    /// Bytes the plan is known to hold, and its largest byte range (for the budgets).
    func sizes(of planned: Planned) -> (known: UInt64?, largestRange: UInt64?)
    /// The steering to follow, or nil (a warning through `events` when it cannot be followed).
    /// Its tracks resolve through the runner's steering resolvers; without tracks, the planner
    /// follows the pathway itself (a recording's reloaders, on the job's controller).
    func steering(of planned: Planned, events: @escaping @Sendable (Event) -> Void) -> JobSteering?
    /// The resolver when no steered track is: each stream against its playlist's URL.
    func resolver(of planned: Planned) -> any TransferURLResolver
    /// Session keys fetched while planning, for the key cache.
    func prefetchedKeys(of planned: Planned) -> SessionKeyPrefetch?
    /// The encryption of each restored record's resource and the key fingerprint it holds.
    func encryption(of records: [Output.Record], in planned: Planned) -> [(encryption: ResourceEncryption, fingerprint: String?)]
    /// Where the output stages its result (refusing an existing destination by the job's policy).
    /// - Throws: `destination-exists`, `destination-unwritable`.
    func staging(for planned: Planned, context: JobContext) throws(HLSError) -> Staging
    /// The output writing into `staging` and recording into `checkpoint` (continuing an earlier
    /// run's when `resumes`).
    func output(for planned: Planned, staging: Staging, checkpoint: CheckpointLog<Output.Record>, context: JobContext,
                resumes: Bool) throws(HLSError) -> Output
    /// Moves the plan's media through the context's engine into `output` after what `restored`
    /// holds, reporting progress.
    func transfer(_ planned: Planned, into output: Output, restored: JobRestoration, context: JobContext,
                  events: @escaping @Sendable (Event) -> Void) async throws(HLSError)
    /// How the engine prepares each resource for the output.
    func preparation(of planned: Planned) -> ContainerPreparation
    /// The report of a committed job.
    func report(_ planned: Planned, product: Output.Product, output: Output, restored: JobRestoration) -> Report
}

extension JobPlanner {
    /// By default a job whose source changed under its checkpoint runs again from the start.
    package var restartsWhenSourceChanges: Bool { true }
    /// By default the staging place for the destination by the job's overwrite policy.
    package func staging(for planned: Planned, context: JobContext) throws(HLSError) -> Staging {
        do { return try Staging(destination: destination, policy: settings.overwrite, resumableAt: context.paths.partial) } catch {
            throw HLSError(destination: error)
        }
    }
    /// By default each resource is validated as the file it will be.
    package func preparation(of planned: Planned) -> ContainerPreparation { .validatedFiles }
    /// By default no session key is fetched while planning.
    package func prefetchedKeys(of planned: Planned) -> SessionKeyPrefetch? { nil }
    /// By default: the resources and bytes kept, when there are any.
    package func resumed(_ restored: JobRestoration, output: Output) -> Event? {
        restored.resources > 0 ? .resumed(resources: restored.resources, bytes: restored.bytes) : nil
    }
}
