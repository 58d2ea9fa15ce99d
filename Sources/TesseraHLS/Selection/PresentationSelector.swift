import TesseraPlaylist
import TesseraSupport

/// Chooses from a multivariant playlist by a `SelectionPolicy`: pure and deterministic.
///
/// Variants: only those of the pathway, then only those the capabilities allow (each refusal
/// has its reason); `best` takes the highest BANDWIDTH, `lowest` the lowest, `max-height N` the
/// best with a RESOLUTION height at most N (variants without RESOLUTION do not qualify),
/// `max-bandwidth N` the best at most N bit/s. Ties, in order: the higher SCORE, the larger
/// RESOLUTION, the higher AVERAGE-BANDWIDTH (lower for `lowest`), the earlier variant.
/// Renditions: from the chosen variant's group, by the policy (`RenditionPolicy`); among
/// renditions that answer alike, DEFAULT=YES first, then AUTOSELECT=YES, then the preferences on
/// characteristics, then the earlier one.
public enum PresentationSelector {
    /// The selection `policy` makes from `playlist`; the variants in `unavailable` (by index,
    /// with why — a playlist that could not be loaded) are refused, never chosen.
    public static func select(_ policy: SelectionPolicy, from playlist: MultivariantPlaylist,
                              unavailable: [Int: String] = [:]) -> PresentationSelection {
        var reasons: [String] = []
        let pathways = Self.pathways(of: playlist)
        let pathway: String
        if let asked = policy.pathway {
            pathway = asked
            reasons.append("pathway \"\(asked)\" as asked")
        } else if let steering = playlist.contentSteering?.pathwayId {
            pathway = steering
            reasons.append("pathway \"\(steering)\": the steering PATHWAY-ID")
        } else {
            pathway = pathways.first ?? "."
            if pathways.count > 1 { reasons.append("pathway \"\(pathway)\": the first listed (no steering PATHWAY-ID)") }
        }
        var refusals: [PresentationSelection.Refusal] = []
        var eligible: [Int] = []
        for (index, variant) in playlist.variants.enumerated() where (variant.pathwayId ?? ".") == pathway {
            if let reason = unavailable[index] ?? policy.capabilities.refusal(of: variant) {
                refusals.append(.init(variant: index, reason: reason))
            } else {
                eligible.append(index)
            }
        }
        let chosen = choose(policy.variant, among: eligible, of: playlist.variants, refusals: &refusals)
        if let chosen {
            let variant = playlist.variants[chosen]
            reasons.append("variant \(chosen) (\(describe(variant))): \(explain(policy.variant, eligible: eligible.count, refused: refusals.count))")
        } else if !refusals.isEmpty, refusals.allSatisfy({ unavailable[$0.variant] != nil }) {
            reasons.append("no variant of pathway \"\(pathway)\" could be loaded (\(refusals.count) refused), so nothing is selected")
        } else {
            reasons.append("no variant of pathway \"\(pathway)\" qualifies for \(policy.variant) (\(refusals.count) refused)")
        }
        var audio: [Int] = []
        var subtitles: [Int] = []
        var video: [Int] = []
        if let chosen {
            let variant = playlist.variants[chosen]
            audio = RenditionSelector.choose(policy.audio, type: .audio, group: variant.audio, in: playlist.renditions, reasons: &reasons)
            subtitles = RenditionSelector.choose(policy.subtitles, type: .subtitles, group: variant.subtitles, in: playlist.renditions,
                                                 reasons: &reasons)
            video = RenditionSelector.choose(policy.video, type: .video, group: variant.video, in: playlist.renditions, reasons: &reasons)
        }
        let iFrames = playlist.iFrameVariants.indices
            .filter { (playlist.iFrameVariants[$0].pathwayId ?? ".") == pathway && policy.capabilities.refusal(of: playlist.iFrameVariants[$0]) == nil }
            .sorted { playlist.iFrameVariants[$0].bandwidth < playlist.iFrameVariants[$1].bandwidth }
        if !playlist.iFrameVariants.isEmpty { reasons.append("\(iFrames.count) of \(playlist.iFrameVariants.count) I-frame variants on the pathway and playable") }
        var selection = PresentationSelection(pathway: pathway, variant: chosen, audio: audio, subtitles: subtitles, iFrameVariants: iFrames,
                                              reasons: reasons, refusals: refusals)
        selection.video = video
        return selection
    }

    /// "1280x720, 3.0 Mb/s, avc1.64001f,mp4a.40.2".
    public static func describe(_ variant: Variant) -> String {
        let rate = variant.bandwidth >= 1_000_000
            ? FixedDecimal.format(Double(variant.bandwidth) / 1_000_000, digits: 1) + " Mb/s"
            : FixedDecimal.format(Double(variant.bandwidth) / 1000, digits: 1) + " kb/s"
        return [variant.resolution.map { "\($0.width)x\($0.height)" }, rate, variant.codecs].compactMap { $0 }.joined(separator: ", ")
    }

    private static func pathways(of playlist: MultivariantPlaylist) -> [String] {
        var seen: [String] = []
        for variant in playlist.variants where !seen.contains(variant.pathwayId ?? ".") { seen.append(variant.pathwayId ?? ".") }
        return seen
    }

    private static func choose(_ preference: VariantPreference, among eligible: [Int], of variants: [Variant],
                               refusals: inout [PresentationSelection.Refusal]) -> Int? {
        var candidates = eligible
        switch preference {
        case .maximumHeight(let height):
            candidates = eligible.filter { index in
                guard let resolution = variants[index].resolution else { return false }
                return Int(resolution.height) <= height
            }
        case .maximumBandwidth(let bandwidth):
            candidates = eligible.filter { variants[$0].bandwidth <= bandwidth }
        case .best, .lowest:
            break
        }
        let lowest = preference == .lowest
        return candidates.min { a, b in ranksBefore(variants[a], a, variants[b], b, lowest: lowest) }
    }

    /// True when `a` is the better choice: BANDWIDTH (higher, or lower for `lowest`), then
    /// SCORE, RESOLUTION, AVERAGE-BANDWIDTH, order.
    private static func ranksBefore(_ a: Variant, _ ai: Int, _ b: Variant, _ bi: Int, lowest: Bool) -> Bool {
        if a.bandwidth != b.bandwidth { return lowest ? a.bandwidth < b.bandwidth : a.bandwidth > b.bandwidth }
        let (sa, sb) = (a.score ?? -1, b.score ?? -1)
        if sa != sb { return sa > sb }
        let (pa, pb) = (pixels(a), pixels(b))
        if pa != pb { return pa > pb }
        let (ba, bb) = (a.averageBandwidth ?? 0, b.averageBandwidth ?? 0)
        if ba != bb { return lowest ? ba < bb : ba > bb }
        return ai < bi
    }

    private static func pixels(_ variant: Variant) -> UInt64 {
        variant.resolution.map { UInt64($0.width) * UInt64($0.height) } ?? 0
    }

    private static func explain(_ preference: VariantPreference, eligible: Int, refused: Int) -> String {
        let pool = "\(eligible) playable" + (refused > 0 ? ", \(refused) refused" : "")
        switch preference {
        case .best: return "the highest BANDWIDTH of \(pool)"
        case .lowest: return "the lowest BANDWIDTH of \(pool)"
        case .maximumHeight(let height): return "the highest BANDWIDTH with a height of at most \(height) of \(pool)"
        case .maximumBandwidth(let bandwidth): return "the highest BANDWIDTH of at most \(bandwidth) bit/s of \(pool)"
        }
    }
}
