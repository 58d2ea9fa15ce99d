import TesseraPlaylist
import TesseraSupport

/// The structure of a presentation (§4.4.6): I-frame playlists, CODECS against what the groups
/// and segments provide, segment formats per role, rendition groups of one TYPE, stable IDs,
/// encryption methods and session keys.
enum PresentationStructureRules {
    static func check(_ c: inout PresentationRuleContext) {
        for child in c.children {
            let line = child.playlist.references[0].line
            if child.playlist.hasRole(.iFrame), !child.facts.isIFramesOnly {
                c.add(.iFramePlaylistNotIFramesOnly, at: child.index,
                      "This playlist of an EXT-X-I-FRAME-STREAM-INF has no EXT-X-I-FRAMES-ONLY.", related: [.init(source: nil, line: line)])
            }
            if child.playlist.hasRole(.variant), child.facts.isIFramesOnly {
                c.add(.variantPlaylistIFramesOnly, at: child.index,
                      "This playlist of an EXT-X-STREAM-INF is EXT-X-I-FRAMES-ONLY; it belongs in an EXT-X-I-FRAME-STREAM-INF.",
                      related: [.init(source: nil, line: line)])
            }
            segmentFormat(child, line: line, &c)
        }
        codecs(&c)
        groups(&c)
        stableRenditionIds(&c)
        encryption(&c)
        sessionKeys(&c)
    }

    private static func segmentFormat(_ child: PresentationRuleContext.Child, line: Int, _ c: inout PresentationRuleContext) {
        guard let format = child.facts.format, format != .unknown else { return }
        if child.playlist.hasRole(.subtitles), format != .webVTT, format != .fragmentedMP4 {
            c.add(.segmentFormatMismatch, at: child.index,
                  "This SUBTITLES playlist's segments are \(format); subtitles are WebVTT or IMSC1 in fMP4.", related: [.init(source: nil, line: line)])
        } else if format == .webVTT, let role = child.playlist.references.first(where: { $0.role != .subtitles })?.role {
            c.add(.segmentFormatMismatch, at: child.index,
                  "This \(role) playlist's segments are WebVTT, which only a SUBTITLES rendition may carry.", related: [.init(source: nil, line: line)])
        }
    }

    /// CODECS must list every sample format of any rendition the variant can use (§4.4.6.2, §6.2.4).
    private static func codecs(_ c: inout PresentationRuleContext) {
        let mv = c.multivariant
        var playlistOf: [Int: PresentationRuleContext.Child] = [:]
        for child in c.children {
            for reference in child.playlist.references where reference.role == .variant { playlistOf[reference.index] = child }
        }
        var renditionFormats: [String: [SegmentFormat]] = [:]
        for child in c.children {
            for reference in child.playlist.references where reference.role == .subtitles {
                if let group = reference.groupId, let format = child.facts.format { renditionFormats[group, default: []].append(format) }
            }
        }
        func withPlaylists(_ type: Rendition.MediaType, _ group: String?) -> Bool {
            guard let group else { return false }
            return mv.renditions.contains { $0.type == type && $0.groupId == group && $0.uri != nil }
        }
        for (index, variant) in mv.variants.enumerated() {
            guard let written = variant.codecs else { continue }
            let list = CodecList(written)
            var problems: [String] = []
            if withPlaylists(.audio, variant.audio), !list.hasAudio {
                problems.append("names no audio format, but its AUDIO group \"\(variant.audio ?? "")\" has renditions with their own playlists")
            }
            if withPlaylists(.video, variant.video), !list.hasVideo {
                problems.append("names no video format, but its VIDEO group \"\(variant.video ?? "")\" has renditions with their own playlists")
            }
            if let group = variant.subtitles, renditionFormats[group]?.contains(.fragmentedMP4) == true, !list.hasText {
                problems.append("does not list the IMSC1 format (stpp) of its SUBTITLES group \"\(group)\" in fMP4")
            }
            if let own = playlistOf[index], own.facts.format == .packedAudio, list.hasVideo {
                problems.append("names a video format, but the variant's segments are packed audio")
            }
            for problem in problems {
                c.add(.codecsMismatch, at: nil, line: variant.line.number, "The variant's CODECS \"\(written)\" \(problem).",
                      related: playlistOf[index].map { [$0.place] } ?? [])
            }
        }
    }

    /// Groups of one TYPE carry the same members with the same attributes except URI, CHANNELS,
    /// BIT-DEPTH, SAMPLE-RATE, INSTREAM-ID and STABLE-RENDITION-ID (§4.4.6.1.1).
    private static func groups(_ c: inout PresentationRuleContext) {
        var groupsByType: [String: [String]] = [:]
        var members: [String: [Rendition]] = [:]
        for rendition in c.multivariant.renditions {
            let type = rendition.type.description
            let key = type + "\u{0}" + rendition.groupId
            if members[key] == nil { groupsByType[type, default: []].append(rendition.groupId) }
            members[key, default: []].append(rendition)
        }
        for (type, groups) in groupsByType.sorted(by: { $0.key < $1.key }) where groups.count > 1 {
            let reference = members[type + "\u{0}" + groups[0]] ?? []
            for group in groups.dropFirst() {
                let others = members[type + "\u{0}" + group] ?? []
                if let problem = difference(reference, others) {
                    c.add(.renditionGroupsDiffer, at: nil, line: others.first?.line.number,
                          "\(type) group \"\(group)\" \(problem) group \"\(groups[0])\"; groups of one TYPE must offer the same renditions.",
                          related: [.init(source: nil, line: reference.first?.line.number)])
                }
            }
        }
    }

    private static func difference(_ reference: [Rendition], _ others: [Rendition]) -> String? {
        let names = Set(reference.map(\.name))
        let otherNames = Set(others.map(\.name))
        if names != otherNames {
            let missing = names.subtracting(otherNames).sorted()
            let extra = otherNames.subtracting(names).sorted()
            return missing.isEmpty ? "has \"\(extra[0])\", which is not in" : "lacks \"\(missing[0])\" of"
        }
        for rendition in others {
            guard let match = reference.first(where: { $0.name == rendition.name }) else { continue }
            let same = match.language == rendition.language && match.associatedLanguage == rendition.associatedLanguage
                && match.isDefault == rendition.isDefault && match.isAutoselect == rendition.isAutoselect
                && match.isForced == rendition.isForced && match.characteristics == rendition.characteristics
            if !same { return "gives \"\(rendition.name)\" other LANGUAGE, ASSOC-LANGUAGE, DEFAULT, AUTOSELECT, FORCED or CHARACTERISTICS than" }
        }
        return nil
    }

    private static func stableRenditionIds(_ c: inout PresentationRuleContext) {
        var seen: [String: Rendition] = [:]
        for rendition in c.multivariant.renditions {
            guard let id = rendition.stableRenditionId else { continue }
            let key = "\(rendition.type)\u{0}\(rendition.groupId)\u{0}\(id)"
            if let first = seen[key] {
                c.add(.stableRenditionIdDuplicate, at: nil, line: rendition.line.number,
                      "\(rendition.type) group \"\(rendition.groupId)\" has two renditions with STABLE-RENDITION-ID \"\(id)\" (\"\(first.name)\" and \"\(rendition.name)\").",
                      related: [.init(source: nil, line: first.line.number)])
            } else {
                seen[key] = rendition
            }
        }
    }

    private static func encryption(_ c: inout PresentationRuleContext) {
        let variants = c.children.filter { $0.playlist.hasRole(.variant) && $0.facts.segmentCount > 0 }
        guard let (first, other) = c.disagreement(among: variants, { Set($0.facts.encryptionMethods.map(\.description)) }) else { return }
        func methods(_ child: PresentationRuleContext.Child) -> String { child.facts.encryptionMethods.map(\.description).joined(separator: ", ") }
        c.add(.encryptionInconsistent, at: other.index,
              "Segments here use \(methods(other)) and in \(first.name) \(methods(first)); a switch between them changes how media is protected.",
              related: [first.place])
    }

    /// METHOD, KEYFORMAT and KEYFORMATVERSIONS of a session key equal those of any EXT-X-KEY
    /// with its URI (§4.4.6.5).
    private static func sessionKeys(_ c: inout PresentationRuleContext) {
        for sessionKey in c.multivariant.sessionKeys {
            guard let uri = sessionKey.uri else { continue }
            for child in c.children {
                guard let key = child.facts.sessionKeyMatches.first(where: { $0.uri == uri }),
                      key.method != sessionKey.method || key.keyFormat != sessionKey.keyFormat
                        || (key.keyFormatVersions ?? "1") != (sessionKey.keyFormatVersions ?? "1") else { continue }
                c.add(.sessionKeyMismatch, at: nil, line: sessionKey.line.number,
                      "EXT-X-SESSION-KEY \(URLRedaction.redact(uri: uri)) is METHOD=\(sessionKey.method),KEYFORMAT=\"\(sessionKey.keyFormat)\" but \(child.name) uses it as METHOD=\(key.method),KEYFORMAT=\"\(key.keyFormat)\".",
                      related: [child.place(line: key.line.number)])
                break
            }
        }
    }
}
