import TesseraPlaylist

/// Chooses renditions of one type from a variant's group by a `RenditionPolicy` (pure).
enum RenditionSelector {
    static let accessibility = "public.accessibility."
    static let machineGenerated = "public.machine-generated"
    static let translation = "public.translation"

    /// The indices in `renditions` chosen from group `group` of `type`, the reasons appended.
    static func choose(_ policy: RenditionPolicy, type: Rendition.MediaType, group: String?, in renditions: [Rendition],
                       reasons: inout [String]) -> [Int] {
        let label = Self.label(type)
        guard let group else {
            if policy.choice != .none, policy.choice != .automatic { reasons.append("\(label): the variant names no \(type) group") }
            return []
        }
        let members = renditions.indices.filter { renditions[$0].type == type && renditions[$0].groupId == group }
        var candidates: [Int] = []
        for index in members {
            if let excluded = exclusion(renditions[index], policy) {
                reasons.append("\(label): \"\(renditions[index].name)\" excluded (\(excluded))")
            } else {
                candidates.append(index)
            }
        }
        let ranked = candidates.sorted { ranksBefore(renditions[$0], $0, renditions[$1], $1, policy) }
        let place = "of group \"\(group)\""
        switch policy.choice {
        case .none:
            reasons.append("\(label): none, as asked")
            return []
        case .all:
            reasons.append("\(label): all \(candidates.count) \(place)")
            return candidates
        case .name(let name):
            guard let index = candidates.first(where: { renditions[$0].name == name }) else {
                reasons.append("\(label): no rendition named \"\(name)\" \(place)")
                return []
            }
            reasons.append("\(label): \"\(name)\" by NAME")
            return [index]
        case .languages(let tags):
            var chosen: [Int] = []
            for tag in tags {
                let (found, range) = LanguageMatch.matches(tag, in: candidates.map { renditions[$0].language })
                let matching = found.map { candidates[$0] }
                guard let best = ranked.first(where: { matching.contains($0) }), let range else {
                    reasons.append("\(label): nothing \(place) answers \(tag)")
                    continue
                }
                if !chosen.contains(best) { chosen.append(best) }
                reasons.append("\(label): \"\(renditions[best].name)\" (\(renditions[best].language ?? "")) for \(tag) by \(range)")
            }
            return chosen
        case .automatic:
            if let index = ranked.first(where: { renditions[$0].isDefault }) {
                reasons.append("\(label): \"\(renditions[index].name)\", the DEFAULT=YES rendition \(place)")
                return [index]
            }
            guard type == .audio else {
                reasons.append("\(label): none (no DEFAULT=YES rendition \(place))")
                return []
            }
            if let index = ranked.first(where: { renditions[$0].isAutoselect }) ?? ranked.first {
                let why = renditions[index].isAutoselect ? "the first AUTOSELECT=YES rendition" : "the first rendition"
                reasons.append("\(label): \"\(renditions[index].name)\", \(why) \(place) (none is DEFAULT=YES)")
                return [index]
            }
            reasons.append("\(label): nothing \(place) to take")
            return []
        }
    }

    /// How reasons name renditions of `type`.
    static func label(_ type: Rendition.MediaType) -> String {
        switch type {
        case .audio: "audio"
        case .video: "video"
        case .subtitles: "subtitles"
        case .closedCaptions: "closed captions"
        }
    }

    private static func exclusion(_ rendition: Rendition, _ policy: RenditionPolicy) -> String? {
        let traits = characteristics(rendition)
        if policy.accessibility == .exclude, traits.contains(where: { $0.hasPrefix(accessibility) }) { return "an accessibility rendition" }
        if policy.machineGenerated == .exclude, traits.contains(machineGenerated) { return "machine-generated" }
        if policy.translations == .exclude, traits.contains(translation) { return "a translation" }
        return nil
    }

    /// DEFAULT, then AUTOSELECT, then the characteristic preferences, then order.
    private static func ranksBefore(_ a: Rendition, _ ai: Int, _ b: Rendition, _ bi: Int, _ policy: RenditionPolicy) -> Bool {
        if a.isDefault != b.isDefault { return a.isDefault }
        if a.isAutoselect != b.isAutoselect { return a.isAutoselect }
        let (wa, wb) = (weight(a, policy), weight(b, policy))
        if wa != wb { return wa < wb }
        return ai < bi
    }

    /// Lower is better: each preferred characteristic −1, each avoided one +1.
    private static func weight(_ rendition: Rendition, _ policy: RenditionPolicy) -> Int {
        let traits = characteristics(rendition)
        func score(_ present: Bool, _ preference: RenditionPolicy.Preference) -> Int {
            guard present else { return 0 }
            switch preference {
            case .prefer: return -1
            case .avoid: return 1
            case .neutral, .exclude: return 0
            }
        }
        return score(traits.contains { $0.hasPrefix(accessibility) }, policy.accessibility)
            + score(traits.contains(machineGenerated), policy.machineGenerated)
            + score(traits.contains(translation), policy.translations)
    }

    private static func characteristics(_ rendition: Rendition) -> [String] {
        rendition.characteristics.map { $0.split(separator: ",").map { String($0) } } ?? []
    }
}
