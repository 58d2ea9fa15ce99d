#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Chooses the variant a single-file download takes, and refuses one whose audio comes from a
/// separate rendition (one file cannot hold two independently fetched streams).
enum VariantSelector {
    /// The chosen variant of `playlist` (fetched from `url`) for `preference`.
    /// - Throws: `no-matching-variant`; `unsupported` when its audio is a separate rendition.
    static func choose(_ preference: VariantPreference, in playlist: MultivariantPlaylist, url: URL) throws(HLSError) -> Variant {
        let source = URLRedaction.redact(url)
        let ordered = playlist.variants.sorted { lhs, rhs in
            lhs.bandwidth != rhs.bandwidth ? lhs.bandwidth < rhs.bandwidth : pixels(lhs) < pixels(rhs)
        }
        let chosen: Variant? = switch preference {
        case .best: ordered.last
        case .lowest: ordered.first
        case .maximumHeight(let height): ordered.last { ($0.resolution?.height).map { Int($0) <= height } ?? false }
        case .maximumBandwidth(let bandwidth): ordered.last { $0.bandwidth <= bandwidth }
        }
        guard let chosen else {
            throw HLSError(.noMatchingVariant, "No variant of \(source) matches \(preference) (\(playlist.variants.count) variants).")
        }
        if let group = chosen.audio {
            let renditions = playlist.renditions.filter { $0.type == .audio && $0.groupId == group }
            // A rendition without a URI is carried in the variant's own stream (§4.4.6.1).
            guard renditions.isEmpty || renditions.contains(where: { $0.uri == nil }) else {
                throw HLSError(.unsupported, "The chosen variant of \(source) (line \(chosen.line.number)) takes its audio from a separate rendition (GROUP-ID \"\(group)\"); one file cannot hold separately fetched audio.")
            }
        }
        return chosen
    }

    /// "320x180, 167.2 kb/s".
    static func describe(_ variant: Variant) -> String {
        let rate = FixedDecimal.format(Double(variant.bandwidth) / 1000, digits: 1) + " kb/s"
        guard let resolution = variant.resolution else { return rate }
        return "\(resolution.width)x\(resolution.height), \(rate)"
    }

    private static func pixels(_ variant: Variant) -> UInt64 {
        variant.resolution.map { UInt64($0.width) * UInt64($0.height) } ?? 0
    }
}
