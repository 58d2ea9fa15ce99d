import TesseraSupport

/// Where a job stages its result beside the destination before its one-step publication: a
/// hidden partial file (a download) or folder (a package, a recording).
package protocol JobStaging: AnyObject {
    /// Leaves the staged result for a later run.
    func keep()
    /// Removes the staged result.
    func discard()
}

extension StagingFile: JobStaging {}
extension StagingDirectory: JobStaging {}
