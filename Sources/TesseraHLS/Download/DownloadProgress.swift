/// Where a download stands.
public struct DownloadProgress: Sendable, Equatable {
    /// Resources (segments) written.
    public let resourcesDone: Int
    /// Resources in the plan.
    public let resourceCount: Int
    /// Bytes written to the staging file.
    public let bytesWritten: UInt64
}
