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
    /// Network bytes received so far, restored ones and the bodies still in flight included (at
    /// least `bytesFetched`): what the rate and the time left are measured by between resources.
    public let bytesReceived: UInt64

    /// Creates a progress value; `bytesReceived` defaults to `bytesFetched`.
    public init(resourcesDone: Int, resourceCount: Int, bytesWritten: UInt64, bytesFetched: UInt64 = 0, totalBytes: UInt64? = nil,
                bytesReceived: UInt64? = nil) {
        self.resourcesDone = resourcesDone
        self.resourceCount = resourceCount
        self.bytesWritten = bytesWritten
        self.bytesFetched = bytesFetched
        self.totalBytes = totalBytes
        self.bytesReceived = max(bytesFetched, bytesReceived ?? bytesFetched)
    }

    /// The same progress with `bytesReceived` (bytes in flight arrived since).
    public func receiving(_ bytes: UInt64) -> DownloadProgress {
        DownloadProgress(resourcesDone: resourcesDone, resourceCount: resourceCount, bytesWritten: bytesWritten, bytesFetched: bytesFetched,
                         totalBytes: totalBytes, bytesReceived: bytes)
    }
}
