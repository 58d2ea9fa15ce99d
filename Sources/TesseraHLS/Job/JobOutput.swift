/// Where a media job's resources go, and the lifecycle of its staged result under `MediaJob`:
/// restore what a checkpoint vouches for, accept each resource in transfer order and checkpoint
/// (its `writer`: the single-file assembler or the package folder), finish, commit — or, after a
/// failure, keep what the checkpoint can vouch for or discard it all. The single-file download,
/// the package and the recording are the outputs.
package protocol JobOutput: AnyObject {
    /// What the transfer engine writes each resource into, in transfer order.
    associatedtype Writer: TransferOutput
    /// One entry of the output's checkpoint log.
    associatedtype Record: Codable & Equatable & Sendable
    /// What a finished output gives its report.
    associatedtype Product

    /// Restores the resources the checkpoint's `records` vouch for (verified against what is on
    /// disk); everything else in the staging place is dropped.
    /// - Throws: `destination-unwritable`; `source-changed` when what is on disk no longer
    ///   matches its checkpoint.
    func restore(_ records: [Record]) throws(HLSError) -> JobRestoration
    /// The transfer's output.
    var writer: Writer { get }
    /// Resources written (restored ones included).
    var resourcesDone: Int { get }
    /// Completes the staged result (the last checks, playlists, manifests).
    /// - Throws: the failure that leaves nothing at the destination.
    func finish() throws(HLSError) -> Product
    /// Publishes the finished result at the destination in one step.
    /// - Throws: `destination-exists`, `destination-unwritable`.
    func commit() throws(HLSError)
    /// After a failure: keeps the staged result for a later run, or removes it.
    func settle(keeping: Bool)
}
