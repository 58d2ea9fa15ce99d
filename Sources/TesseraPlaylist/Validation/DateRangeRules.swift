import TesseraSupport
/// EXT-X-DATERANGE rules (RFC 8216bis §4.4.5.1).
enum DateRangeRules {
    static func check(_ p: MediaPlaylist, _ context: inout RuleContext) {
        if let first = p.dateRanges.first, !p.segments.contains(where: { $0.programDateTime != nil }) {
            context.add(.dateRangeWithoutDateTime, .error, first.line, "4.4.5.1",
                        "The playlist has EXT-X-DATERANGE tags but no EXT-X-PROGRAM-DATE-TIME.")
        }
        var seen: [String: DateRange] = [:]
        for range in p.dateRanges {
            let quotedID = "\"\(URLRedaction.redact(uri: range.id))\""
            if let earlier = seen[range.id] {
                if let attribute = conflict(earlier, range) {
                    context.add(.dateRangeConflict, .error, range.line, "4.4.5.1",
                                "Date range \(quotedID) gives \(attribute) a different value than an earlier tag with its ID.")
                }
            } else if range.startDate == nil {
                context.add(.dateRangeMissingStart, .error, range.line, "4.4.5.1", "Date range \(quotedID) has no START-DATE.")
            }
            seen[range.id] = seen[range.id] ?? range
            let start = (range.startDate ?? seen[range.id]?.startDate)?.secondsSince1970
            if let start, let end = range.endDate?.secondsSince1970 {
                if end < start {
                    context.add(.dateRangeEndsBeforeStart, .error, range.line, "4.4.5.1", "Date range \(quotedID) ends before it starts.")
                } else if let duration = range.duration, abs(end - start - duration) > 0.001 {
                    context.add(.dateRangeDurationMismatch, .error, range.line, "4.4.5.1",
                                "Date range \(quotedID): END-DATE is not START-DATE + DURATION (\(duration) s).")
                }
            }
            if range.endsOnNext, range.dateRangeClass == nil || range.duration != nil || range.endDate != nil {
                context.add(.dateRangeEndOnNextMisuse, .error, range.line, "4.4.5.1",
                            "Date range \(quotedID): END-ON-NEXT needs CLASS and excludes DURATION and END-DATE.")
            }
            if let cue = range.cue, cue.contains("PRE"), cue.contains("POST") {
                context.add(.dateRangeCuePreAndPost, .error, range.line, "4.4.5.1", "Date range \(quotedID): CUE has both PRE and POST.")
            }
        }
    }

    /// The first attribute both tags give with different values.
    private static func conflict(_ a: DateRange, _ b: DateRange) -> String? {
        func differs<T: Equatable>(_ x: T?, _ y: T?) -> Bool { x != nil && y != nil && x != y }
        if differs(a.dateRangeClass, b.dateRangeClass) { return "CLASS" }
        if differs(a.startDate?.text, b.startDate?.text) { return "START-DATE" }
        if differs(a.endDate?.text, b.endDate?.text) { return "END-DATE" }
        if differs(a.duration, b.duration) { return "DURATION" }
        if differs(a.plannedDuration, b.plannedDuration) { return "PLANNED-DURATION" }
        for attribute in b.clientAttributes {
            if let earlier = a.clientAttribute(attribute.name), earlier != attribute.value { return attribute.name }
        }
        return nil
    }
}
