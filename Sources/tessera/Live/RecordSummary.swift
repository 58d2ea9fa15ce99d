#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraLive
import TesseraSupport

/// The JSON object `tessera record --json` ends its stdout with.
enum RecordSummary {
    /// The object's fields.
    struct Document: Encodable {
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

    /// The receipt's `recorded:` line, and what to say before it on stderr when the recording
    /// ended early or at a restart of the source.
    static func line(_ report: RecordingReport) -> (why: String?, line: String) {
        var ending = ""
        var why: String?
        switch report.end {
        case .failed(let code, let reason):
            why = "ended early (\(code)): \(reason)"
            ending = code == .sourceStopped ? " (ended early: the source stopped producing media)" : " (ended early: \(code))"
        case .sourceRestarted(let reason):
            why = "ended at a restart of the source (--on-restart end): \(reason)"
            ending = " (ended at a restart of the source)"
        default: break
        }
        let restarts = report.restarts > 0 ? "\(report.restarts) restart\(report.restarts == 1 ? "" : "s") of the source, " : ""
        let line = "recorded: \(report.segments) segments, \(FixedDecimal.format(report.duration, digits: 1)) s, \(report.gaps) gaps, "
            + restarts + "\(report.bytes) bytes → \(report.destination.path)" + ending
        return (why, line)
    }

    static func json(_ report: RecordingReport) -> String { JSONText.of(document(report)) }

    /// The JSON object of `report`.
    static func document(_ report: RecordingReport) -> Document {
        let (end, reason): (String, String?) = switch report.end {
        case .duration: ("duration", nil)
        case .endList: ("endlist", nil)
        case .stopped: ("stopped", nil)
        case .sourceRestarted(let reason): ("source-restarted", reason)
        case .failed(let code, let reason): (code.rawValue, reason)
        }
        return Document(segments: report.segments, duration: report.duration, gaps: report.gaps, originGaps: report.originGaps,
                                    retries: report.retries, bytes: report.bytes, evicted: report.evicted,
                                    evictedDuration: report.evictedDuration, evictedBytes: report.evictedBytes, snapshots: report.snapshots,
                                    restarts: report.restarts, gapList: report.manifest.gaps,
                                    dateRangesOmitted: report.dateRangesOmitted, parts: report.parts, interstitials: report.interstitials, end: end, reason: reason)
    }
}
