#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a managed download stands.
public enum DownloadState: Sendable, Equatable {
    /// Waiting for a free slot.
    case queued
    /// Transferring.
    case running
    /// Paused by the caller (or restored from a log with a signed URL that must be given again).
    case paused
    /// Restored after a restart from a URL whose query was not stored: `resume(_:url:)` with a
    /// fresh URL continues it.
    case needsURL
    /// Published at this file.
    case completed(URL)
    /// Given up.
    case failed(code: HTTPError.Code, message: String)

    /// Completed or failed.
    public var isTerminal: Bool {
        switch self {
        case .completed, .failed: true
        default: false
        }
    }
}
