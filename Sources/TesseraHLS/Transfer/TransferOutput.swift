/// Where a transfer's resources go, strictly in transfer order. Each output owns its
/// checkpoints: it records what it has made durable and, on a later run, says what it can keep
/// — the single-file assembler (one file, its running digest) and the per-resource file sink
/// (a file per resource, each with its digest) are the two.
package protocol TransferOutput: AnyObject {
    /// Where resource bodies too large for memory are spilled (on the output's volume).
    var spillFolder: String { get }
    /// Writes the next resource (its index is the next in transfer order).
    /// - Throws: `HLSError` (the job fails).
    func write(_ resource: FetchedResource) throws(HLSError)
    /// At a fetch boundary: makes what was written durable and records it when enough has
    /// accumulated or enough time has passed (always with `force`).
    /// - Throws: `destination-unwritable`.
    func checkpointIfDue(force: Bool) throws(HLSError)
}
