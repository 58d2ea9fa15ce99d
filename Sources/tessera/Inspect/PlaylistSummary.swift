#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// The human-readable `tessera inspect` output.
enum PlaylistSummary {
    static func lines(_ parsed: ParsedPlaylist, source: String) -> [String] {
        var out: [String] = []
        switch parsed.playlist {
        case .media(let p):
            let totals = p.segmentTotals
            let kind = p.hasEndList ? (p.playlistType == .event ? "event (ended)" : "VOD") : (p.playlistType == .event ? "event (live)" : "live")
            out.append("\(source): media playlist, \(kind)\(p.isIFramesOnly ? ", I-frames only" : "")")
            out.append("  version \(p.version.map(String.init) ?? "none"), target duration \(p.targetDuration.map { "\($0) s" } ?? "missing"), media sequence \(p.mediaSequence)")
            out.append("  \(totals.count) segments, \(FixedDecimal.format(totals.duration, digits: 3)) s in all"
                + (totals.discontinuityCount > 0 ? ", \(totals.discontinuityCount) discontinuities" : "")
                + (totals.gapCount > 0 ? ", \(totals.gapCount) gaps" : ""))
            let methods = Set(totals.keyKinds.map { "\($0.method)" + ($0.isIdentity ? "" : " (\($0.keyFormat))") })
            if !methods.isEmpty { out.append("  encryption: \(methods.sorted().joined(separator: ", "))") }
            if totals.mappedCount > 0 { out.append("  fragmented MP4 (EXT-X-MAP)") }
            if let part = p.partInformation {
                out.append("  low latency: part target \(part.partTarget) s, \(totals.partCount + p.pendingParts.count) parts"
                    + (p.serverControl?.canBlockReload == true ? ", blocking reload" : ""))
            }
            if !p.dateRanges.isEmpty { out.append("  \(p.dateRanges.count) date ranges") }
        case .multivariant(let p):
            out.append("\(source): multivariant playlist, version \(p.version.map(String.init) ?? "none")")
            for v in p.variants {
                out.append("  variant \(v.bandwidth) bit/s" + (v.resolution.map { " \($0)" } ?? "") + (v.codecs.map { " \($0)" } ?? "")
                    + " → \(v.uri)")
            }
            if !p.iFrameVariants.isEmpty { out.append("  \(p.iFrameVariants.count) I-frame variants") }
            for r in p.renditions {
                out.append("  rendition \(r.type) \"\(r.groupId)\" \(r.name)" + (r.language.map { " [\($0)]" } ?? "")
                    + (r.isDefault ? " default" : ""))
            }
            if let steering = p.contentSteering { out.append("  content steering via \(steering.serverURI)") }
        }
        if parsed.diagnostics.isEmpty {
            out.append("no diagnostics")
        } else {
            out.append("\(parsed.diagnostics.count) diagnostics:")
            out += parsed.diagnostics.map { "  \($0)" }
        }
        return out
    }
}
