#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A snapshot of one managed download.
public struct DownloadItem: Sendable, Equatable {
    /// The manager's id for it.
    public let id: String
    /// The URL (nil while it `needsURL`).
    public let url: URL?
    /// The destination file name (already checked safe).
    public let fileName: String
    /// Where it stands.
    public let state: DownloadState
    /// Bytes on disk so far.
    public let bytesReceived: Int64
    /// The size, once the server said it.
    public let totalBytes: Int64?
}
