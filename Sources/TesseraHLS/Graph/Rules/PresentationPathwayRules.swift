import TesseraPlaylist

/// Stable variant IDs and pathways (§4.4.6.2, §4.4.6.2.1, §4.4.6.6): one ID per variant of a
/// pathway, and pathways that offer the same variants and groups so steering can move between
/// them.
enum PresentationPathwayRules {
    static func check(_ c: inout PresentationRuleContext) {
        let variants = c.multivariant.variants
        var order: [String] = []
        var idsByPathway: [String: [String: Variant]] = [:]
        var groupsByPathway: [String: Set<String>] = [:]
        var unidentified: [String: Variant] = [:]
        for variant in variants {
            let pathway = variant.pathwayId ?? "."
            if idsByPathway[pathway] == nil { order.append(pathway) }
            var ids = idsByPathway[pathway] ?? [:]
            if let id = variant.stableVariantId {
                if let first = ids[id] {
                    c.add(.stableVariantIdDuplicate, at: nil, line: variant.line.number,
                          "Pathway \"\(pathway)\" has two variants with STABLE-VARIANT-ID \"\(id)\".",
                          related: [.init(source: nil, line: first.line.number)])
                } else {
                    ids[id] = variant
                }
            } else if unidentified[pathway] == nil {
                unidentified[pathway] = variant
            }
            idsByPathway[pathway] = ids
            let groups = [variant.audio.map { "AUDIO \"\($0)\"" }, variant.video.map { "VIDEO \"\($0)\"" },
                          variant.subtitles.map { "SUBTITLES \"\($0)\"" }].compactMap { $0 }
            groupsByPathway[pathway, default: []].formUnion(groups)
        }
        guard order.count > 1 else { return }
        if let pathway = order.first(where: { unidentified[$0] != nil }), let variant = unidentified[pathway] {
            c.add(.pathwayNotEquivalent, at: nil, line: variant.line.number,
                  "A variant of pathway \"\(pathway)\" has no STABLE-VARIANT-ID; with \(order.count) pathways, steering cannot find its equivalent on another pathway.")
        }
        let reference = order[0]
        for pathway in order.dropFirst() {
            let expected = Set(idsByPathway[reference]?.keys.map { $0 } ?? [])
            let offered = Set(idsByPathway[pathway]?.keys.map { $0 } ?? [])
            if let missing = expected.subtracting(offered).sorted().first ?? offered.subtracting(expected).sorted().first {
                let (has, lacks) = expected.contains(missing) ? (reference, pathway) : (pathway, reference)
                let line = idsByPathway[has]?[missing]?.line.number
                c.add(.pathwayNotEquivalent, at: nil, line: line,
                      "STABLE-VARIANT-ID \"\(missing)\" is on pathway \"\(has)\" and not on \"\(lacks)\"; every pathway should offer the same variants.")
            }
            let expectedGroups = groupsByPathway[reference] ?? []
            let offeredGroups = groupsByPathway[pathway] ?? []
            if let group = expectedGroups.symmetricDifference(offeredGroups).sorted().first {
                let (has, lacks) = expectedGroups.contains(group) ? (reference, pathway) : (pathway, reference)
                c.add(.pathwayNotEquivalent, at: nil,
                      "Rendition group \(group) is used on pathway \"\(has)\" and not on \"\(lacks)\"; every group should exist on every pathway.")
            }
        }
    }
}
