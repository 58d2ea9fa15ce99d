/// Media segment tags (RFC 8216bis §4.4.4) and the URI line that closes a segment.
extension PlaylistBuilder {
    mutating func applySegmentTag(_ tag: KnownTag, _ value: Span) throws(PlaylistError) {
        switch tag {
        case .extinf:
            pending.hasSegmentTags = true
            if pending.duration != nil {
                report(.repeatedTag, .error, "4.4.4.1", "A segment has two EXTINF tags; the later one is used.")
            }
            extinf(value)
        case .byteRange:
            pending.hasSegmentTags = true
            guard let (length, offset) = byteRangeValue(value, "EXT-X-BYTERANGE", "4.4.4.2") else { return }
            pending.range = (length, offset, line)
        case .discontinuity:
            pending.hasSegmentTags = true
            pending.isDiscontinuity = true
        case .gap:
            pending.hasSegmentTags = true
            pending.isGap = true
        case .programDateTime:
            pending.hasSegmentTags = true
            let dateTime = ProgramDateTime(bytes, value)
            if dateTime.secondsSince1970 == nil {
                report(.malformedTagValue, .error, "4.4.4.6", "EXT-X-PROGRAM-DATE-TIME \"\(dateTime.text)\" is not an ISO 8601 date-time.")
            }
            pending.programDateTime = dateTime
        case .bitrate:
            bitrate = integerValue(value, "EXT-X-BITRATE", "4.4.4.8")
        case .key:
            try applyKey(value)
        case .map:
            try applyMap(value)
        case .part:
            pending.hasSegmentTags = true
            try applyPart(value)
        default:
            preconditionFailure("not a segment tag: \(tag)")
        }
    }

    /// Reads an EXTINF into the pending segment: its value, and the places of its text when the
    /// text is a plain decimal (no string made), else the text; and the title.
    private mutating func extinf(_ value: Span) {
        let comma = bytes.firstIndex(of: 0x2C, in: value)
        let number = Span(start: value.start, end: comma ?? value.end)
        if let comma, comma + 1 < value.end {
            pending.title = bytes.string(Span(start: comma + 1, end: value.end))
        } else if pending.title != nil {
            pending.title = nil
        }
        guard let duration = DecimalNumbers.duration(bytes, number) else {
            report(.malformedTagValue, .error, "4.4.4.1",
                   "EXTINF duration must be a decimal number, not \"\(bytes.string(number))\"; the segment gets duration 0.")
            pending.duration = PendingSegment.Duration(value: 0, places: nil)
            pending.durationText = bytes.string(number)
            return
        }
        pending.duration = PendingSegment.Duration(value: duration.value, places: duration.places)
        if duration.places == nil {
            pending.durationText = bytes.string(number)
        } else if pending.durationText != nil {
            pending.durationText = nil
        }
    }

    /// `<length>[@<offset>]`.
    mutating func byteRangeValue(_ value: Span, _ name: String, _ section: String) -> (UInt64, UInt64?)? {
        if let range = DecimalNumbers.byteRange(bytes, value) { return range }
        let at = bytes.firstIndex(of: 0x40, in: value)
        if DecimalNumbers.integer(bytes, Span(start: value.start, end: at ?? value.end)) == nil {
            report(.malformedTagValue, .error, section, "\(name) must be <length>[@<offset>], not \"\(bytes.string(value))\".")
        } else {
            report(.malformedTagValue, .error, section, "\(name) offset must be a decimal integer, not \"\(bytes.string(value))\".")
        }
        return nil
    }

    /// The byte range of a quoted BYTERANGE attribute value (`"<n>[@<o>]"`).
    mutating func byteRange(text: String, _ name: String, _ section: String) -> (UInt64, UInt64?)? {
        let utf8 = Array(text.utf8)
        if let range = utf8.withUnsafeBufferPointer({ DecimalNumbers.byteRange(Bytes(base: $0), Span(start: 0, end: $0.count)) }) {
            return range
        }
        report(.malformedAttribute, .error, section, "\(name) must be \"<length>[@<offset>]\", not \"\(text)\".")
        return nil
    }

    private mutating func applyKey(_ value: Span) throws(PlaylistError) {
        guard let key = try readKey(value, tag: "EXT-X-KEY", section: "4.4.4.4") else { return }
        if key.method == .none {
            keys.removeAll()
            return
        }
        if let index = keys.firstIndex(where: { $0.keyFormat == key.keyFormat }) {
            keys[index] = key
        } else {
            keys.append(key)
        }
    }

    /// Reads an EXT-X-KEY / EXT-X-SESSION-KEY attribute list.
    mutating func readKey(_ value: Span, tag: String, section: String) throws(PlaylistError) -> SegmentKey? {
        guard var attributes = try attributes(value, tag: tag) else { return nil }
        guard let methodSpan = enumerated(&attributes, "METHOD") else {
            missing(attributes, "METHOD", section: section)
            return nil
        }
        let method = EncryptionMethod(bytes.string(methodSpan))
        if case .other = method {
            unknownValue(attributes, "METHOD", methodSpan, section: section)
            return nil
        }
        let uri = try quoted(&attributes, "URI")
        let iv = try hexadecimal(&attributes, "IV")
        let format = try quoted(&attributes, "KEYFORMAT")
        let versions = try quoted(&attributes, "KEYFORMATVERSIONS")
        if method == .none, uri != nil || iv != nil || format != nil || versions != nil || !unknown(attributes).isEmpty {
            report(.keyNoneWithAttributes, .error, section, "\(tag) METHOD=NONE must have no other attributes.")
        }
        if method != .none, uri == nil {
            missing(attributes, "URI", section: section)
            return nil
        }
        if let iv, iv.count != 16 {
            report(.malformedAttribute, .error, section, "\(tag) IV must be 128 bits (32 hexadecimal digits); it has \(iv.count * 8).")
        }
        return SegmentKey(method: method, uri: uri, iv: iv.flatMap { $0.count == 16 ? $0 : nil },
                          keyFormat: format ?? "identity", keyFormatVersions: versions,
                          unknownAttributes: unknown(attributes), line: SourceLine(line))
    }

    private mutating func applyMap(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-MAP") else { return }
        guard let uri = try quoted(&attributes, "URI") else {
            return missing(attributes, "URI", section: "4.4.4.5")
        }
        var range: PlaylistByteRange?
        if let text = try quoted(&attributes, "BYTERANGE"), let (length, offset) = byteRange(text: text, "EXT-X-MAP BYTERANGE", "4.4.4.5") {
            range = PlaylistByteRange(length: length, offset: offset, resolvedOffset: offset ?? 0)
        }
        map = SharedValue(MediaInitializationSection(uri: uri, byteRange: range, keys: keys,
                                                     unknownAttributes: unknown(attributes), line: SourceLine(line)))
    }

    private mutating func applyPart(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-PART") else { return }
        guard let uri = try quoted(&attributes, "URI") else { return missing(attributes, "URI", section: "4.4.4.9") }
        guard let (duration, durationText) = float(&attributes, "DURATION") else {
            return missing(attributes, "DURATION", section: "4.4.4.9")
        }
        let independent = flag(&attributes, "INDEPENDENT", onlyYes: true)
        let gap = flag(&attributes, "GAP", onlyYes: true)
        var range: PlaylistByteRange?
        if let text = try quoted(&attributes, "BYTERANGE"), let (length, offset) = byteRange(text: text, "EXT-X-PART BYTERANGE", "4.4.4.9") {
            var resolved = offset
            if resolved == nil, let previous = pending.lastPartRange, previous.uri == uri { resolved = previous.end }
            if let resolved {
                range = PlaylistByteRange(length: length, offset: offset, resolvedOffset: resolved)
                pending.lastPartRange = (uri, resolved &+ length)
            } else {
                report(.byteRangeWithoutPrevious, .error, "4.4.4.9",
                       "EXT-X-PART BYTERANGE has no offset and no earlier part of the same resource in this segment.")
            }
        }
        pending.parts.append(PartialSegment(uri: uri, duration: duration, durationText: durationText, isIndependent: independent,
                                            byteRange: range, isGap: gap, unknownAttributes: unknown(attributes),
                                            line: SourceLine(line)))
        try checkCount(pending.parts.count, "parts in one segment")
    }
}
