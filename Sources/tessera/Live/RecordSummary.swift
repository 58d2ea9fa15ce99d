import TesseraHLS
import TesseraLive

/// The JSON object `tessera record --json` ends its stdout with.
enum RecordSummary {
    private struct Document: Encodable {
        let segments: Int
        let duration: Double
        let gaps: Int
        let originGaps: Int
        let retries: Int
        let bytes: UInt64
        let evicted: Int
        let evictedDuration: Double
        let evictedBytes: UInt64
        let snapshots: Int
        let restarts: Int
        let gapList: [PackageManifest.Gap]
        let dateRangesOmitted: Int
        let parts: RecordingPartsReport?
        let interstitials: RecordingInterstitialsReport?
        let end: String
        let reason: String?
    }

    /// The receipt's `parts:` line (with `--parts`).
    static func partsLine(_ parts: RecordingPartsReport) -> String {
        "parts: \(parts.fetched) fetched (\(parts.bytes) bytes), \(parts.promoted) segments promoted, \(parts.fellBack) fetched whole after all; "
            + "preload hints: \(parts.hintsFetched) fetched, \(parts.hintsConfirmed) confirmed, \(parts.hintsDiscarded) discarded"
    }

    /// The receipt's `interstitials:` line (with `--interstitials`).
    static func interstitialsLine(_ report: RecordingInterstitialsReport) -> String {
        "interstitials: \(report.kept) kept (\(report.assets) assets, \(report.bytes) bytes, local), \(report.omitted) omitted whole"
    }

    static func json(_ report: RecordingReport) -> String {
        let (end, reason): (String, String?) = switch report.end {
        case .duration: ("duration", nil)
        case .endList: ("endlist", nil)
        case .stopped: ("stopped", nil)
        case .sourceRestarted(let reason): ("source-restarted", reason)
        case .failed(let code, let reason): (code.rawValue, reason)
        }
        return JSONText.of(Document(segments: report.segments, duration: report.duration, gaps: report.gaps, originGaps: report.originGaps,
                                    retries: report.retries, bytes: report.bytes, evicted: report.evicted,
                                    evictedDuration: report.evictedDuration, evictedBytes: report.evictedBytes, snapshots: report.snapshots,
                                    restarts: report.restarts, gapList: report.manifest.gaps,
                                    dateRangesOmitted: report.dateRangesOmitted, parts: report.parts, interstitials: report.interstitials, end: end, reason: reason))
    }
}
