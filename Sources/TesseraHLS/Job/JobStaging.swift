#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Where a job stages its result beside the destination before its one-step publication: a
/// hidden partial file (a download) or folder (a package, a recording).
package protocol JobStaging: AnyObject {
    /// The staging place for `destination` at `partialPath` (an earlier run's, when resumed),
    /// an existing destination treated by `policy`.
    /// - Throws: `SupportError` when the destination exists and may not be replaced, or the
    ///   place cannot be made.
    init(destination: URL, policy: OverwritePolicy, resumableAt partialPath: String) throws(SupportError)
    /// Leaves the staged result for a later run.
    func keep()
    /// Removes the staged result.
    func discard()
}

extension StagingFile: JobStaging {}
extension StagingDirectory: JobStaging {}
