#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// Apple's HLS Authoring Specification for Apple Devices, checked on a loaded presentation:
/// opt-in guidance (`tessera graph --authoring`), catalogued in `AuthoringDiagnosticCatalog`,
/// that never changes what Tessera does with the presentation.
public enum AuthoringGuidance {
    /// The authoring findings of `graph`.
    public static func check(_ graph: PresentationGraph) -> [Diagnostic] {
        var c = PresentationRuleContext(multivariant: graph.multivariant, playlists: graph.playlists)
        let mv = graph.multivariant
        timing(&c)
        multivariant(mv, graph: graph, &c)
        if graph.finalURL.scheme?.lowercased() == "http" || graph.playlists.contains(where: { $0.finalURL?.scheme?.lowercased() == "http" }) {
            let count = graph.playlists.filter { $0.finalURL?.scheme?.lowercased() == "http" }.count
            c.add(.authoringHTTPS, at: nil, "The presentation is served over plain HTTP (the multivariant playlist\(count > 0 ? " and \(count) media playlists" : "")); Apple devices need HTTPS.")
        }
        let videoVariants = mv.variants.filter { variant in variant.resolution != nil || variant.codecs.map { CodecList($0).hasVideo } == true }
        if !videoVariants.isEmpty, mv.iFrameVariants.isEmpty {
            c.add(.authoringIFramePlaylists, at: nil, "\(videoVariants.count) video variants and no EXT-X-I-FRAME-STREAM-INF: players have no trick play.")
        }
        return c.diagnostics
    }

    private static func timing(_ c: inout PresentationRuleContext) {
        let media = c.children.filter { !$0.playlist.hasRole(.iFrame) && !$0.playlist.hasRole(.subtitles) }
        if let odd = media.first(where: { ($0.facts.targetDuration ?? 6) != 6 }) {
            c.add(.authoringTargetDuration, at: odd.index, "EXT-X-TARGETDURATION is \(odd.facts.targetDuration ?? 0) s; 6 s is recommended.")
        }
        for child in c.children {
            if let target = child.facts.targetDuration, child.facts.longestSegment > Double(target) + 0.5 {
                c.add(.authoringSegmentOverTarget, at: child.index,
                      "A segment lasts \(PresentationTimingRules.number(child.facts.longestSegment)) s, more than the target duration \(target) s plus 0.5 s.")
            }
            if child.facts.isFinished, child.facts.playlistType == nil {
                c.add(.authoringPlaylistType, at: child.index, "This finished playlist has no EXT-X-PLAYLIST-TYPE:VOD.")
            }
            if !child.facts.isFinished, child.facts.dateTimes == .none, child.facts.segmentCount > 0 {
                c.add(.authoringLiveDateTime, at: child.index, "This live playlist has no EXT-X-PROGRAM-DATE-TIME.")
            }
            if let part = child.facts.partTarget, let holdBack = child.facts.serverControl?.partHoldBack, holdBack < 3 * part {
                c.add(.authoringPartHoldBack, at: child.index, line: child.facts.serverControl?.line.number,
                      "PART-HOLD-BACK \(PresentationTimingRules.number(holdBack)) is below 3 × PART-TARGET (\(PresentationTimingRules.number(3 * part))).")
            }
        }
        let variants = c.children.filter { $0.playlist.hasRole(.variant) }
        if !c.multivariant.hasIndependentSegments, let without = variants.first(where: { !$0.facts.hasIndependentSegments }) {
            c.add(.authoringIndependentSegments, at: without.index,
                  "Neither the multivariant playlist nor this variant playlist has EXT-X-INDEPENDENT-SEGMENTS.")
        }
        if let highest = c.children.compactMap({ $0.facts.version }).max(), (c.multivariant.version ?? 1) < highest,
           let child = c.children.first(where: { $0.facts.version == highest }) {
            c.add(.authoringVersion, at: child.index,
                  "This playlist declares EXT-X-VERSION \(highest), above the multivariant playlist's \(c.multivariant.version ?? 1).",
                  related: [.init(source: nil, line: nil)])
        }
    }

    private static func multivariant(_ mv: MultivariantPlaylist, graph: PresentationGraph, _ c: inout PresentationRuleContext) {
        if let first = mv.variants.first {
            let audioOnly = first.resolution == nil && first.codecs.map { !CodecList($0).hasVideo } == true
            let highest = mv.variants.count >= 3 && mv.variants.allSatisfy { $0.bandwidth <= first.bandwidth }
            if audioOnly || highest {
                c.add(.authoringFirstVariant, at: nil, line: first.line.number,
                      "The first variant — where players start — is \(audioOnly ? "audio-only" : "the highest of \(mv.variants.count)"); list a mid-rate video variant first.")
            }
        }
        for variant in mv.variants {
            let video = variant.resolution != nil || variant.codecs.map { CodecList($0).hasVideo } == true
            var missing: [String] = []
            if variant.codecs == nil { missing.append("CODECS") }
            if video, variant.resolution == nil { missing.append("RESOLUTION") }
            if video, variant.frameRate == nil { missing.append("FRAME-RATE") }
            if variant.averageBandwidth == nil { missing.append("AVERAGE-BANDWIDTH") }
            if !missing.isEmpty {
                c.add(.authoringVariantAttributes, at: nil, line: variant.line.number, "This variant has no \(missing.joined(separator: ", ")).")
            }
        }
        for variant in mv.iFrameVariants where variant.codecs == nil || variant.resolution == nil {
            c.add(.authoringVariantAttributes, at: nil, line: variant.line.number, "This I-frame variant has no \(variant.codecs == nil ? "CODECS" : "RESOLUTION").")
        }
        if mv.variants.contains(where: { $0.videoRange == .pq || $0.videoRange == .hlg }),
           let undeclared = mv.variants.first(where: { $0.videoRange == nil }) {
            c.add(.authoringVideoRange, at: nil, line: undeclared.line.number,
                  "HDR variants are offered and this variant does not declare VIDEO-RANGE; every variant must when any is not SDR.")
        }
        var byFamily: [String: [Variant]] = [:]
        for variant in mv.variants where variant.score != nil {
            byFamily["\(variant.codecs ?? "")\u{0}\(variant.videoRange ?? .sdr)", default: []].append(variant)
        }
        for family in byFamily.values {
            let sorted = family.sorted { $0.bandwidth < $1.bandwidth }
            for (lower, higher) in zip(sorted, sorted.dropFirst()) where higher.bandwidth > lower.bandwidth && (higher.score ?? 0) < (lower.score ?? 0) {
                c.add(.authoringScoreOrder, at: nil, line: higher.line.number,
                      "This variant has a higher BANDWIDTH (\(higher.bandwidth)) and a lower SCORE than the one at line \(lower.line.number) of the same CODECS and VIDEO-RANGE.",
                      related: [.init(source: nil, line: lower.line.number)])
                break
            }
        }
        for rendition in mv.renditions where rendition.type != .video && rendition.language == nil {
            c.add(.authoringRenditionLanguage, at: nil, line: rendition.line.number, "\(rendition.type) rendition \"\(rendition.name)\" has no LANGUAGE.")
        }
        if let steering = mv.contentSteering, steering.pathwayId == nil {
            c.add(.authoringSteeringPathway, at: nil, line: steering.line.number, "EXT-X-CONTENT-STEERING has no PATHWAY-ID to start on.")
        }
    }
}
