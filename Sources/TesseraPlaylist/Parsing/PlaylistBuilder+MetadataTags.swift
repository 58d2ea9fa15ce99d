/// Media metadata tags (RFC 8216bis §4.4.5).
extension PlaylistBuilder {
    mutating func applyMetadataTag(_ tag: KnownTag, _ value: Span) throws(PlaylistError) {
        switch tag {
        case .dateRange: try applyDateRange(value)
        case .skip: try applySkip(value)
        case .preloadHint: try applyPreloadHint(value)
        case .renditionReport: try applyRenditionReport(value)
        default: preconditionFailure("not a metadata tag: \(tag)")
        }
    }

    private mutating func applyDateRange(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-DATERANGE") else { return }
        guard let id = try quoted(&attributes, "ID") else { return missing(attributes, "ID", section: "4.4.5.1") }
        let dateClass = try quoted(&attributes, "CLASS")
        let startDate = try quoted(&attributes, "START-DATE").map { date($0, "START-DATE") }
        let cue = try quoted(&attributes, "CUE").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let endDate = try quoted(&attributes, "END-DATE").map { date($0, "END-DATE") }
        let duration = float(&attributes, "DURATION")?.0
        let planned = float(&attributes, "PLANNED-DURATION")?.0
        let command = try hexadecimal(&attributes, "SCTE35-CMD")
        let out = try hexadecimal(&attributes, "SCTE35-OUT")
        let into = try hexadecimal(&attributes, "SCTE35-IN")
        let endsOnNext = flag(&attributes, "END-ON-NEXT", onlyYes: true)
        var client: [ClientAttribute] = []
        for (index, attribute) in attributes.raw.enumerated()
            where !attributes.consumed[index] && bytes.hasPrefix(attribute.name, "X-") {
            attributes.consumed[index] = true
            let name = bytes.string(attribute.name)
            if attribute.isQuoted {
                client.append(ClientAttribute(name: name, value: .string(try text(attribute.value))))
            } else if let hex = DecimalNumbers.hexadecimal(bytes, attribute.value) {
                client.append(ClientAttribute(name: name, value: .hexadecimal(hex)))
            } else if let number = DecimalNumbers.float(bytes, attribute.value, signed: true) {
                client.append(ClientAttribute(name: name, value: .number(number, text: bytes.string(attribute.value))))
            } else {
                report(.malformedAttribute, .error, "4.4.5.1",
                       "EXT-X-DATERANGE attribute \(name) must be a quoted string, a hexadecimal sequence or a number; it is ignored.")
            }
        }
        dateRanges.append(DateRange(
            id: id, dateRangeClass: dateClass, startDate: startDate, cue: cue, endDate: endDate, duration: duration,
            plannedDuration: planned, clientAttributes: client, scte35Command: command, scte35Out: out, scte35In: into,
            endsOnNext: endsOnNext, unknownAttributes: unknown(attributes), line: SourceLine(line)))
        try checkCount(dateRanges.count, "date ranges")
    }

    private mutating func date(_ text: String, _ name: String) -> ProgramDateTime {
        let value = ProgramDateTime(text: text)
        if value.secondsSince1970 == nil {
            report(.malformedAttribute, .error, "4.4.5.1", "EXT-X-DATERANGE \(name) \"\(text)\" is not an ISO 8601 date-time.")
        }
        return value
    }

    private mutating func applySkip(_ value: Span) throws(PlaylistError) {
        guard skip == nil else { return repeated("EXT-X-SKIP", "4.4.5.2") }
        guard var attributes = try attributes(value, tag: "EXT-X-SKIP") else { return }
        guard let skipped = integer(&attributes, "SKIPPED-SEGMENTS") else {
            return missing(attributes, "SKIPPED-SEGMENTS", section: "4.4.5.2")
        }
        let removed = try quoted(&attributes, "RECENTLY-REMOVED-DATERANGES")
            .map { $0.isEmpty ? [] : $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        skip = SkipInformation(skippedSegments: skipped, recentlyRemovedDateRanges: removed,
                               unknownAttributes: unknown(attributes), line: SourceLine(line))
    }

    private mutating func applyPreloadHint(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-PRELOAD-HINT") else { return }
        guard let typeSpan = enumerated(&attributes, "TYPE") else { return missing(attributes, "TYPE", section: "4.4.5.3") }
        guard let uri = try quoted(&attributes, "URI") else { return missing(attributes, "URI", section: "4.4.5.3") }
        let type: PreloadHint.HintType = bytes.equals(typeSpan, "PART") ? .part
            : bytes.equals(typeSpan, "MAP") ? .map : .other(bytes.string(typeSpan))
        preloadHints.append(PreloadHint(type: type, uri: uri, byteRangeStart: integer(&attributes, "BYTERANGE-START"),
                                        byteRangeLength: integer(&attributes, "BYTERANGE-LENGTH"),
                                        unknownAttributes: unknown(attributes), line: SourceLine(line)))
        try checkCount(preloadHints.count, "preload hints")
    }

    private mutating func applyRenditionReport(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-RENDITION-REPORT") else { return }
        renditionReports.append(RenditionReport(uri: try quoted(&attributes, "URI"),
                                                lastMediaSequence: integer(&attributes, "LAST-MSN"),
                                                lastPart: integer(&attributes, "LAST-PART"),
                                                unknownAttributes: unknown(attributes), line: SourceLine(line)))
        try checkCount(renditionReports.count, "rendition reports")
    }
}
