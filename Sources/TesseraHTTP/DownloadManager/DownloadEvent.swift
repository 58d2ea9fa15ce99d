#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happened to one managed download. Progress for a download is coalesced (a slow reader
/// sees the latest value); lifecycle events are always delivered, in order, and a download's last
/// progress always comes before its terminal event. Transient events (`started`, `retrying`,
/// `restarted`) are dropped, oldest first, only for a reader thousands of events behind.
public struct DownloadEvent: Sendable, Equatable {
    /// The kinds of event.
    public enum Kind: Sendable, Equatable {
        /// Accepted (also on restore).
        case added
        /// A transfer began, at `offset` bytes (non-zero when resuming).
        case started(offset: Int64)
        /// Bytes on disk, of the total when known.
        case progress(TransferProgress)
        /// Paused; the partial file is kept.
        case paused
        /// Failed in a retryable way; continues after `delay`.
        case retrying(attempt: Int, delay: Duration, reason: String)
        /// The resource changed since the partial bytes were fetched: started again from zero.
        case restarted
        /// Published at this file. Terminal.
        case completed(URL)
        /// Given up. Terminal.
        case failed(code: HTTPError.Code, message: String)
        /// Removed by the caller; its partial file deleted.
        case removed
    }

    /// The download's id.
    public let id: String
    /// What happened.
    public let kind: Kind

    /// Whether it changes what state a download is in (never dropped from the event stream).
    var isLifecycle: Bool {
        switch kind {
        case .added, .paused, .completed, .failed, .removed: true
        default: false
        }
    }

    /// Whether this is a progress event (the coalesced kind).
    var isProgress: Bool {
        if case .progress = kind { return true }
        return false
    }
}
