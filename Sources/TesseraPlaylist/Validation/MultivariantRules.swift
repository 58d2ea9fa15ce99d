/// Multivariant playlist rules (RFC 8216bis §4.4.6, §8).
enum MultivariantRules {
    static func check(_ p: MultivariantPlaylist, _ context: inout RuleContext) {
        versions(p, &context)
        AttributeSyntaxRules.check(p, &context)
        renditions(p, &context)
        variants(p, &context)
        var dataKeys = Set<String>()
        for data in p.sessionData {
            if (data.value == nil) == (data.uri == nil) {
                context.add(.sessionDataValueOrURI, .error, data.line, "4.4.6.4",
                            "EXT-X-SESSION-DATA \"\(data.dataId)\" needs exactly one of VALUE and URI.")
            }
            if !dataKeys.insert(data.dataId + "\u{0}" + (data.language ?? "")).inserted {
                context.add(.sessionDataDuplicate, .error, data.line, "4.4.6.4",
                            "EXT-X-SESSION-DATA \"\(data.dataId)\" repeats with the same LANGUAGE.")
            }
        }
        for key in p.sessionKeys where key.method == .none {
            context.add(.sessionKeyMethodNone, .error, key.line, "4.4.6.5", "EXT-X-SESSION-KEY must not have METHOD=NONE.")
        }
        for (index, key) in p.sessionKeys.enumerated() where p.sessionKeys[..<index].contains(key) {
            context.add(.sessionKeyDuplicate, .error, key.line, "4.4.6.5", "EXT-X-SESSION-KEY repeats an earlier one exactly.")
        }
        if let steering = p.contentSteering, let pathway = steering.pathwayId,
           !p.variants.contains(where: { $0.pathwayId == pathway }) {
            context.add(.steeringPathwayUnknown, .error, steering.line, "4.4.6.6",
                        "EXT-X-CONTENT-STEERING PATHWAY-ID \"\(pathway)\" is on no variant.")
        }
    }

    private static func versions(_ p: MultivariantPlaylist, _ context: inout RuleContext) {
        var needs: [(Int, String, SourceLine?)] = []
        if let variant = p.variants.first(where: { $0.requiredVideoLayout != nil }) { needs.append((12, "REQ-VIDEO-LAYOUT", variant.line)) }
        for rendition in p.renditions {
            guard let id = rendition.instreamId else { continue }
            if rendition.type != .closedCaptions { needs.append((13, "INSTREAM-ID on a \(rendition.type) rendition", rendition.line)) }
            else if id.hasPrefix("SERVICE") { needs.append((7, "INSTREAM-ID \(id)", rendition.line)) }
        }
        if let key = p.sessionKeys.first(where: { $0.iv != nil }) { needs.append((2, "An EXT-X-SESSION-KEY IV", key.line)) }
        if let key = p.sessionKeys.first(where: { !$0.isIdentity || $0.keyFormatVersions != nil }) {
            needs.append((5, "KEYFORMAT or KEYFORMATVERSIONS", key.line))
        }
        if let strongest = needs.max(by: { $0.0 < $1.0 }) {
            PlaylistValidator.require(strongest.0, for: strongest.1, declared: p.version, line: strongest.2, &context)
        }
    }

    private static func renditions(_ p: MultivariantPlaylist, _ context: inout RuleContext) {
        // Keys as values, not strings: this runs for every rendition of every playlist parsed.
        struct Member: Hashable { let type: Rendition.MediaType, group: String, name: String }
        struct Group: Hashable { let type: Rendition.MediaType, group: String }
        struct Choice: Hashable {
            let type: Rendition.MediaType, group: String, language: String?, associated: String?, forced: Bool, characteristics: String?
        }
        var names = Set<Member>()
        var defaults = Set<Group>()
        var autoselected = Set<Choice>()
        for r in p.renditions {
            func group() -> String { "\(r.type) group \"\(r.groupId)\"" }
            if !names.insert(Member(type: r.type, group: r.groupId, name: r.name)).inserted {
                context.add(.renditionDuplicateName, .error, r.line, "4.4.6.1.1", "\(group()) has two renditions named \"\(r.name)\".")
            }
            if r.isDefault, !defaults.insert(Group(type: r.type, group: r.groupId)).inserted {
                context.add(.renditionMultipleDefaults, .error, r.line, "4.4.6.1.1", "\(group()) has more than one DEFAULT=YES rendition.")
            }
            if r.isAutoselect, !autoselected.insert(Choice(type: r.type, group: r.groupId, language: r.language, associated: r.associatedLanguage,
                                                          forced: r.isForced, characteristics: r.characteristics)).inserted {
                context.add(.autoselectIndistinct, .warning, r.line, "4.4.6.1.1",
                            "\(group()) has two AUTOSELECT=YES renditions with the same LANGUAGE, ASSOC-LANGUAGE, FORCED and CHARACTERISTICS.")
            }
            var problems: [String] = []
            if r.isForced, r.type != .subtitles { problems.append("FORCED is for SUBTITLES only") }
            if r.type != .audio, r.channels != nil || r.bitDepth != nil || r.sampleRate != nil {
                problems.append("CHANNELS, BIT-DEPTH and SAMPLE-RATE are for AUDIO only")
            }
            if r.type == .closedCaptions, r.uri != nil { problems.append("CLOSED-CAPTIONS must not have a URI") }
            if r.type == .closedCaptions, r.instreamId == nil { problems.append("CLOSED-CAPTIONS needs INSTREAM-ID") }
            if r.type == .subtitles, r.uri == nil { problems.append("SUBTITLES needs a URI") }
            for problem in problems {
                context.add(.renditionAttributeForType, .error, r.line, "4.4.6.1", "EXT-X-MEDIA \"\(r.name)\": \(problem).")
            }
            if let id = r.stableRenditionId, !isStableIdentifier(id) {
                context.add(.stableIdentifierCharacters, .error, r.line, "4.4.6.1",
                            "STABLE-RENDITION-ID may use only a-z, A-Z, 0-9 and + / = . _ -.")
            }
        }
    }

    private static func variants(_ p: MultivariantPlaylist, _ context: inout RuleContext) {
        func exists(_ type: Rendition.MediaType, _ group: String) -> Bool {
            p.renditions.contains { $0.type == type && $0.groupId == group }
        }
        let all = p.variants + p.iFrameVariants
        for v in all {
            let references: [(Rendition.MediaType, String?)] = [(.audio, v.audio), (.video, v.video), (.subtitles, v.subtitles)]
            for case let (type, group?) in references where !exists(type, group) {
                context.add(.variantUnknownGroup, .error, v.line, "4.4.6.2", "A variant names \(type) group \"\(group)\", which does not exist.")
            }
            if case .group(let group) = v.closedCaptions, !exists(.closedCaptions, group) {
                context.add(.variantUnknownGroup, .error, v.line, "4.4.6.2",
                            "A variant names CLOSED-CAPTIONS group \"\(group)\", which does not exist.")
            }
            if v.codecs == nil {
                context.add(.variantWithoutCodecs, .warning, v.line, "4.4.6.2", "A variant has no CODECS attribute.")
            }
            if let id = v.stableVariantId, !isStableIdentifier(id) {
                context.add(.stableIdentifierCharacters, .error, v.line, "4.4.6.2",
                            "STABLE-VARIANT-ID may use only a-z, A-Z, 0-9 and + / = . _ -.")
            }
        }
        let none = p.variants.filter { $0.closedCaptions == Variant.ClosedCaptions.none }
        if !none.isEmpty, none.count != p.variants.count,
           let odd = p.variants.first(where: { $0.closedCaptions != Variant.ClosedCaptions.none }) {
            context.add(.closedCaptionsNoneInconsistent, .error, odd.line, "4.4.6.2",
                        "Some variants have CLOSED-CAPTIONS=NONE, so every EXT-X-STREAM-INF must.")
        }
        let scored = p.variants.filter { $0.score != nil }
        if !scored.isEmpty, scored.count != p.variants.count, let odd = p.variants.first(where: { $0.score == nil }) {
            context.add(.scoreOnSomeVariants, .warning, odd.line, "4.4.6.2", "Some variants have SCORE and this one has not.")
        }
    }

    private static func isStableIdentifier(_ text: String) -> Bool {
        text.utf8.allSatisfy { c in
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                || c == 0x2B || c == 0x2F || c == 0x3D || c == 0x2E || c == 0x5F || c == 0x2D
        }
    }
}
