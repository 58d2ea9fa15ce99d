/// Where a download stands.
public struct DownloadProgress: Sendable, Equatable {
    /// Resources (initialization section and segments) written, restored ones included.
    public let resourcesDone: Int
    /// Resources in the plan.
    public let resourceCount: Int
    /// Bytes in the output file.
    public let bytesWritten: UInt64
    /// Network bytes of the resources written, restored ones included (their byte ranges when
    /// known).
    public let bytesFetched: UInt64
    /// Network bytes of the whole plan when every resource has a byte range; nil otherwise
    /// (progress is then determinate in resources only).
    public let totalBytes: UInt64?

    /// Creates a progress value.
    public init(resourcesDone: Int, resourceCount: Int, bytesWritten: UInt64, bytesFetched: UInt64 = 0, totalBytes: UInt64? = nil) {
        self.resourcesDone = resourcesDone
        self.resourceCount = resourceCount
        self.bytesWritten = bytesWritten
        self.bytesFetched = bytesFetched
        self.totalBytes = totalBytes
    }
}
