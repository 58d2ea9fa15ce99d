#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// The human `tessera graph` output: the presentation as a tree — variants, renditions by
/// group, I-frame variants, pathways — each with what its playlist holds, then the diagnostics,
/// each naming its playlist. URIs are shown redacted.
enum GraphTree {
    static func lines(_ graph: PresentationGraph, selection: PresentationSelection) -> [String] {
        let mv = graph.multivariant
        var out = ["\(URLRedaction.redact(graph.url)): presentation, \(graph.playlists.count) media playlists"]
        func child(_ role: PlaylistRole, _ index: Int) -> String {
            guard let position = graph.playlistIndex(role: role, index: index) else { return "" }
            return " → [\(position)] " + describe(graph.playlists[position])
        }
        out.append("variants (\(mv.variants.count)):")
        for (index, v) in mv.variants.enumerated() {
            var attributes = [PresentationSelector.describe(v)]
            for (name, value) in [("audio", v.audio), ("video", v.video), ("subtitles", v.subtitles)] {
                if let value { attributes.append("\(name) \"\(value)\"") }
            }
            if let pathway = v.pathwayId { attributes.append("pathway \"\(pathway)\"") }
            if let id = v.stableVariantId { attributes.append("id \"\(id)\"") }
            out.append("  \(attributes.joined(separator: ", "))" + child(.variant, index))
        }
        let groups = Dictionary(grouping: mv.renditions.enumerated(), by: { "\($0.element.type) \"\($0.element.groupId)\"" })
        var seen = Set<String>()
        for (_, rendition) in mv.renditions.enumerated() {
            let key = "\(rendition.type) \"\(rendition.groupId)\""
            guard seen.insert(key).inserted, let members = groups[key] else { continue }
            out.append("rendition group \(key):")
            for (index, r) in members {
                var attributes = ["\"\(r.name)\""]
                if let language = r.language { attributes.append(language) }
                if r.isDefault { attributes.append("default") }
                if r.isAutoselect { attributes.append("autoselect") }
                if r.isForced { attributes.append("forced") }
                if let id = r.instreamId { attributes.append(id) }
                if let characteristics = r.characteristics { attributes.append(characteristics) }
                let place = r.uri == nil ? " (in the variant's stream)" : child(PlaylistRole(r.type), index)
                out.append("  \(attributes.joined(separator: ", "))" + place)
            }
        }
        if !mv.iFrameVariants.isEmpty {
            out.append("I-frame variants (\(mv.iFrameVariants.count)):")
            for (index, v) in mv.iFrameVariants.enumerated() {
                out.append("  \(PresentationSelector.describe(v))" + child(.iFrame, index))
            }
        }
        let pathways = graph.pathways
        if pathways.count > 1 || mv.contentSteering != nil {
            var line = "pathways: " + pathways.map { "\"\($0)\"" }.joined(separator: ", ")
            if let steering = mv.contentSteering {
                line += "; steering via \(URLRedaction.redact(uri: steering.serverURI)), initial \"\(steering.pathwayId ?? ".")\""
            }
            out.append(line)
        }
        out.append(selection.variant == nil ? "selection: none (pathway \"\(selection.pathway)\"):" : "selection (pathway \"\(selection.pathway)\"):")
        out += selection.reasons.map { "  " + $0 }
        for refusal in selection.refusals.prefix(20) { out.append("  variant \(refusal.variant) refused: \(refusal.reason)") }
        if selection.refusals.count > 20 { out.append("  … \(selection.refusals.count - 20) more refused") }
        out += diagnostics(graph)
        return out
    }

    /// "1000 segments, 6000 s, VOD" or "unavailable: …".
    private static func describe(_ playlist: GraphPlaylist) -> String {
        let name = URLRedaction.redact(uri: playlist.uri)
        switch playlist.outcome {
        case .failed(let error): return "\(name): unavailable (\(error.code))"
        case .loaded(let facts):
            let kind = facts.isFinished ? (facts.playlistType == .event ? "event (ended)" : "VOD") : "live"
            var text = "\(name): \(facts.segmentCount) segments, \(FixedDecimal.format(facts.duration, digits: 3)) s, \(kind)"
            if let format = facts.format { text += ", \(format)" }
            if facts.isIFramesOnly { text += ", I-frames only" }
            let methods = facts.encryptionMethods.filter { $0 != .none }
            if !methods.isEmpty { text += ", " + methods.map(\.description).joined(separator: "+") }
            return text
        }
    }

    private static func diagnostics(_ graph: PresentationGraph) -> [String] {
        guard !graph.diagnostics.isEmpty else { return ["no diagnostics"] }
        let counts = Diagnostic.Severity.allCases.reversed().compactMap { severity -> String? in
            let count = graph.diagnostics.filter { $0.severity == severity }.count
            return count == 0 ? nil : "\(count) \(severity)\(count == 1 ? "" : "s")"
        }
        var out = ["\(graph.diagnostics.count) diagnostics (\(counts.joined(separator: ", "))):"]
        for d in graph.diagnostics {
            let place: String
            switch d.source {
            case .index(let index)?: place = "[\(index)] \(URLRedaction.redact(uri: graph.playlists[index].uri))"
            case .playlist(let url)?: place = url
            case nil: place = "multivariant"
            }
            let line = d.line.map { " line \($0)" } ?? ""
            let related = d.related.map { related -> String in
                let where_ = related.source.map { source -> String in
                    if case .index(let index) = source { return "[\(index)]" }
                    return "\(source)"
                } ?? "multivariant"
                return where_ + (related.line.map { " line \($0)" } ?? "")
            }
            out.append("  \(d.severity) \(d.id) in \(place)\(line) (§\(d.section)): \(d.message)"
                + (related.isEmpty ? "" : " [see \(related.joined(separator: "; "))]"))
        }
        return out
    }
}
