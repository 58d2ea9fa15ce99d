#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS

/// What a committed recording holds, and why it ended.
public struct RecordingReport: Sendable {
    /// Why the recording ended.
    public enum End: Sendable, Equatable {
        /// The duration asked for was recorded.
        case duration
        /// The playlist ended (EXT-X-ENDLIST).
        case endList
        /// `RecordingControl.stop()` (SIGINT or SIGTERM in the CLI).
        case stopped
        /// The source restarted and `LiveRecording.Options.onRestart` is `.end`: what came
        /// before is committed; `reason` says how the restart showed.
        case sourceRestarted(reason: String)
        /// It could not go on (an outage past the limit, a changed source, a segment that could
        /// not be fetched): what was recorded before is committed, `reason` says why it ended.
        case failed(code: HLSError.Code, reason: String)
    }

    /// The package folder.
    public let destination: URL
    /// Why it ended.
    public let end: End
    /// Segments recorded (files).
    public let segments: Int
    /// Seconds of media, gaps included.
    public let duration: Double
    /// Gaps declared by the recorder (every track's): media that left the window before it could
    /// be fetched, segments that could not be fetched, media lost to a restart of the source.
    public let gaps: Int
    /// EXT-X-GAP segments of the origin, kept as gaps.
    public let originGaps: Int
    /// Date Ranges omitted because they could not be kept whole.
    public let dateRangesOmitted: Int
    /// Playlist reloads retried during outages.
    public let retries: Int
    /// Media bytes written (those kept).
    public let bytes: UInt64
    /// The variant's segments (gaps included) rolling retention evicted.
    public var evicted = 0
    /// Their seconds.
    public var evictedDuration = 0.0
    /// Bytes of every track's files it deleted.
    public var evictedBytes: UInt64 = 0
    /// In-progress snapshots published.
    public var snapshots = 0
    /// Restarts of the source recorded through (the most any track showed).
    public var restarts = 0
    /// What was done with LL-HLS parts, when they were asked for (`Options.parts`).
    public var parts: RecordingPartsReport?
    /// What was done with interstitials, when they were asked for (`Options.interstitials`).
    public var interstitials: RecordingInterstitialsReport?
    /// The manifest written.
    public let manifest: PackageManifest
}
