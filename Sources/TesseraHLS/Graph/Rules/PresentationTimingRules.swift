import TesseraPlaylist
import TesseraSupport

/// Timing across playlists (§6.2.4, §4.4.3.8): target durations, part targets, playlist types,
/// ENDLIST, discontinuity and media sequence alignment, durations, program date-times.
enum PresentationTimingRules {
    static func check(_ c: inout PresentationRuleContext) {
        targetDurations(&c)
        partTargets(&c)
        if let (first, other) = c.disagreement(among: c.children, { $0.facts.playlistType }) {
            c.add(.playlistTypeMismatch, at: other.index,
                  "EXT-X-PLAYLIST-TYPE is \(text(other.facts.playlistType)) here and \(text(first.facts.playlistType)) in \(first.name); every media playlist must have the same one, or none.",
                  related: [first.place])
        }
        if let (first, other) = c.disagreement(among: c.children, { $0.facts.hasEndList }) {
            let (ended, live) = first.facts.hasEndList ? (first, other) : (other, first)
            c.add(.endListMismatch, at: other.index, "\(ended.name) has EXT-X-ENDLIST and \(live.name) has not: one rendition ended while another is live.",
                  related: [first.place])
        }
        let finished = c.children.filter { $0.facts.isFinished }
        if let (first, other) = c.disagreement(among: finished, { [$0.facts.firstDiscontinuitySequence, $0.facts.lastDiscontinuitySequence] }) {
            c.add(.discontinuitySequenceMisaligned, at: other.index,
                  "Segments here span discontinuity sequence \(span(other.facts)) and in \(first.name) \(span(first.facts)); matching content must have matching discontinuity sequence numbers.",
                  related: [first.place])
        }
        let aligned = finished.filter { $0.playlist.hasRole(.variant) || $0.playlist.hasRole(.audio) || $0.playlist.hasRole(.video) }
        if let (first, other) = c.disagreement(among: aligned, { $0.facts.mediaSequence }) {
            c.add(.mediaSequenceMisaligned, at: other.index,
                  "The first segment here is media sequence \(other.facts.mediaSequence) and in \(first.name) \(first.facts.mediaSequence).",
                  related: [first.place])
        }
        durations(finished, &c)
        dateTimes(&c)
    }

    private static func targetDurations(_ c: inout PresentationRuleContext) {
        // SUBTITLES and I-frame playlists may differ when they are VOD (§6.2.4).
        let bound = c.children.filter { child in
            let exempt = child.playlist.references.allSatisfy { $0.role == .subtitles || $0.role == .iFrame }
            return child.facts.targetDuration != nil && !(exempt && child.facts.playlistType == .vod)
        }
        if let (first, other) = c.disagreement(among: bound, { $0.facts.targetDuration }) {
            c.add(.targetDurationMismatch, at: other.index,
                  "EXT-X-TARGETDURATION is \(other.facts.targetDuration ?? 0) here and \(first.facts.targetDuration ?? 0) in \(first.name); the media playlists of a presentation share one.",
                  related: [first.place])
        }
    }

    private static func partTargets(_ c: inout PresentationRuleContext) {
        let parted = c.children.filter { $0.facts.partTarget != nil }
        guard let (first, other) = c.disagreement(among: parted, { $0.facts.partTarget }) else { return }
        let largest = parted.compactMap(\.facts.partTarget).max() ?? 0
        let holdBack = parted.compactMap { $0.facts.serverControl?.partHoldBack }.min()
        guard let holdBack, holdBack < 3 * largest else { return }
        c.add(.partTargetMismatch, at: other.index,
              "PART-TARGET is \(number(other.facts.partTarget)) here and \(number(first.facts.partTarget)) in \(first.name), and PART-HOLD-BACK \(number(holdBack)) is below 3 × the largest (\(number(3 * largest))).",
              related: [first.place])
    }

    private static func durations(_ finished: [PresentationRuleContext.Child], _ c: inout PresentationRuleContext) {
        let timed = finished.filter { $0.facts.segmentCount > 0 }
        guard let shortest = timed.min(by: { $0.facts.duration < $1.facts.duration }),
              let longest = timed.max(by: { $0.facts.duration < $1.facts.duration }) else { return }
        let tolerance = Double(timed.compactMap(\.facts.targetDuration).min() ?? 1)
        guard longest.facts.duration - shortest.facts.duration > tolerance else { return }
        c.add(.durationMismatch, at: shortest.index,
              "This playlist lasts \(number(shortest.facts.duration)) s and \(longest.name) \(number(longest.facts.duration)) s; content present in only some playlists may last no longer than the smallest target duration (\(number(tolerance)) s).",
              related: [longest.place])
    }

    private static func dateTimes(_ c: inout PresentationRuleContext) {
        let populated = c.children.filter { $0.facts.segmentCount > 0 }
        if let (first, other) = c.disagreement(among: populated, { $0.facts.dateTimes == .none }) {
            let (dated, undated) = first.facts.dateTimes == .none ? (other, first) : (first, other)
            c.add(.dateTimeInconsistent, at: other.index,
                  "\(dated.name) has EXT-X-PROGRAM-DATE-TIME and \(undated.name) has none; when one media playlist has it, all must.",
                  related: [first.place])
        }
        var firstBySequence: [UInt64: PresentationRuleContext.Child] = [:]
        var reported = Set<UInt64>()
        for child in populated {
            guard let date = child.facts.firstDate else { continue }
            let sequence = child.facts.mediaSequence
            guard let first = firstBySequence[sequence] else {
                firstBySequence[sequence] = child
                continue
            }
            guard let expected = first.facts.firstDate, abs(date - expected) >= 1, reported.insert(sequence).inserted else { continue }
            c.add(.dateTimeMisaligned, at: child.index,
                  "Media sequence \(sequence) is dated \(number(date - expected)) s from its date in \(first.name); one segment number must map to one date in every playlist.",
                  related: [first.place])
        }
    }

    private static func text(_ type: MediaPlaylist.PlaylistType?) -> String { type?.description ?? "absent" }

    private static func span(_ facts: MediaPlaylistFacts) -> String {
        facts.firstDiscontinuitySequence == facts.lastDiscontinuitySequence
            ? "\(facts.firstDiscontinuitySequence)" : "\(facts.firstDiscontinuitySequence)-\(facts.lastDiscontinuitySequence)"
    }

    static func number(_ value: Double?) -> String {
        guard let value else { return "absent" }
        var text = Substring(FixedDecimal.format(value, digits: 3))
        while text.last == "0" { text = text.dropLast() }
        if text.last == "." { text = text.dropLast() }
        return String(text)
    }
}
