import TesseraPlaylist

/// Metadata across playlists (§6.2.4, §4.4.2, §8): Date Ranges, SERVER-CONTROL,
/// INDEPENDENT-SEGMENTS, START and EXT-X-VERSION.
enum PresentationMetadataRules {
    static func check(_ c: inout PresentationRuleContext) {
        dateRanges(&c)
        if let (first, other) = c.disagreement(among: c.children, { $0.facts.serverControl }) {
            c.add(.serverControlMismatch, at: other.index, line: other.facts.serverControl?.line.number,
                  "EXT-X-SERVER-CONTROL here \(describe(other.facts.serverControl)) and in \(first.name) \(describe(first.facts.serverControl)); every media playlist must carry the same one, or none.",
                  related: [first.place(line: first.facts.serverControl?.line.number)])
        }
        if !c.multivariant.hasIndependentSegments,
           let (first, other) = c.disagreement(among: c.children, { $0.facts.hasIndependentSegments }) {
            let (with, without) = first.facts.hasIndependentSegments ? (first, other) : (other, first)
            c.add(.independentSegmentsInconsistent, at: other.index,
                  "\(with.name) has EXT-X-INDEPENDENT-SEGMENTS and \(without.name) has not; put it in the multivariant playlist when every segment starts independently.",
                  related: [first.place])
        }
        if let start = c.multivariant.start {
            for child in c.children {
                guard let own = child.facts.start, own.timeOffset != start.timeOffset || own.isPrecise != start.isPrecise else { continue }
                c.add(.startMismatch, at: child.index, line: own.line.number,
                      "EXT-X-START TIME-OFFSET=\(PresentationTimingRules.number(own.timeOffset)) here differs from the multivariant playlist's TIME-OFFSET=\(PresentationTimingRules.number(start.timeOffset)); this one is ignored.",
                      related: [Diagnostic.Place(source: nil, line: start.line.number)])
            }
        }
        if let (first, other) = c.disagreement(among: c.children, { $0.facts.version ?? 1 }) {
            c.add(.versionInconsistent, at: other.index,
                  "EXT-X-VERSION is \(other.facts.version ?? 1) here and \(first.facts.version ?? 1) in \(first.name); a client must support the highest to play every playlist.",
                  related: [first.place])
        }
    }

    /// Same ID, same attributes everywhere; finished playlists that carry Date Ranges carry the
    /// same set. A live playlist may not yet (or no longer) list a range, and may add END-DATE
    /// later, so only the first tag of each ID is compared there.
    private static func dateRanges(_ c: inout PresentationRuleContext) {
        var firstTag: [String: (DateRange, PresentationRuleContext.Child)] = [:]
        var allTags: [String: ([DateRange], PresentationRuleContext.Child)] = [:]
        var reported = Set<String>()
        for child in c.children {
            var tags: [String: [DateRange]] = [:]
            for range in child.facts.dateRanges { tags[range.id, default: []].append(range) }
            for range in child.facts.dateRanges where tags[range.id]?.first?.line.number == range.line.number {
                if let (seen, owner) = firstTag[range.id] {
                    let differs = seen != range || (child.facts.isFinished && owner.facts.isFinished && allTags[range.id]?.0 != tags[range.id])
                    if differs, reported.insert(range.id).inserted {
                        c.add(.dateRangeMismatch, at: child.index, line: range.line.number,
                              "Date Range \"\(range.id)\" has different attributes here and in \(owner.name).",
                              related: [owner.place(line: seen.line.number)])
                    }
                } else {
                    firstTag[range.id] = (range, child)
                    if child.facts.isFinished { allTags[range.id] = (tags[range.id] ?? [], child) }
                }
            }
        }
        let carriers = c.children.filter { $0.facts.isFinished && !$0.facts.dateRanges.isEmpty }
        guard carriers.count > 1 else { return }
        var everyID: [String] = []
        var owners: [String: PresentationRuleContext.Child] = [:]
        for child in carriers {
            for range in child.facts.dateRanges where owners[range.id] == nil {
                owners[range.id] = child
                everyID.append(range.id)
            }
        }
        for child in carriers {
            let own = Set(child.facts.dateRanges.map(\.id))
            let missing = everyID.filter { !own.contains($0) }
            guard let example = missing.first, let owner = owners[example] else { continue }
            c.add(.dateRangeMissing, at: child.index,
                  "\(missing.count) Date Range\(missing.count == 1 ? "" : "s") of other playlists \(missing.count == 1 ? "is" : "are") missing here, e.g. \"\(example)\" of \(owner.name).",
                  related: [owner.place])
        }
    }

    private static func describe(_ control: ServerControl?) -> String {
        guard let control else { return "is absent" }
        var parts: [String] = []
        if control.canBlockReload { parts.append("CAN-BLOCK-RELOAD=YES") }
        if let value = control.partHoldBack { parts.append("PART-HOLD-BACK=\(PresentationTimingRules.number(value))") }
        if let value = control.holdBack { parts.append("HOLD-BACK=\(PresentationTimingRules.number(value))") }
        if let value = control.canSkipUntil { parts.append("CAN-SKIP-UNTIL=\(PresentationTimingRules.number(value))") }
        if control.canSkipDateRanges { parts.append("CAN-SKIP-DATERANGES=YES") }
        return parts.isEmpty ? "has no attributes" : "is " + parts.joined(separator: ",")
    }
}
