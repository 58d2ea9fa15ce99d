/// Media playlist tags (RFC 8216bis §4.4.3).
extension PlaylistBuilder {
    mutating func applyMediaPlaylistTag(_ tag: KnownTag, _ value: Span) throws(PlaylistError) {
        switch tag {
        case .targetDuration:
            guard targetDuration == nil else { return repeated("EXT-X-TARGETDURATION", "4.4.3") }
            targetDuration = integerValue(value, "EXT-X-TARGETDURATION", "4.4.3.1")
        case .mediaSequence:
            guard mediaSequence == nil else { return repeated("EXT-X-MEDIA-SEQUENCE", "4.4.3") }
            if !segments.isEmpty || pending.hasSegmentTags {
                report(.sequenceTagAfterSegments, .error, "4.4.3.2", "EXT-X-MEDIA-SEQUENCE must appear before the first segment.")
            }
            mediaSequence = integerValue(value, "EXT-X-MEDIA-SEQUENCE", "4.4.3.2")
        case .discontinuitySequence:
            guard discontinuitySequence == nil else { return repeated("EXT-X-DISCONTINUITY-SEQUENCE", "4.4.3") }
            if !segments.isEmpty || pending.hasSegmentTags {
                report(.sequenceTagAfterSegments, .error, "4.4.3.3",
                       "EXT-X-DISCONTINUITY-SEQUENCE must appear before the first segment and any EXT-X-DISCONTINUITY.")
            }
            discontinuitySequence = integerValue(value, "EXT-X-DISCONTINUITY-SEQUENCE", "4.4.3.3")
        case .endList:
            if hasEndList { repeated("EXT-X-ENDLIST", "4.4.3") }
            hasEndList = true
        case .playlistType:
            guard playlistType == nil else { return repeated("EXT-X-PLAYLIST-TYPE", "4.4.3") }
            if bytes.equals(value, "VOD") {
                playlistType = .vod
            } else if bytes.equals(value, "EVENT") {
                playlistType = .event
            } else {
                report(.unknownEnumeratedValue, .error, "4.4.3.5",
                       "EXT-X-PLAYLIST-TYPE must be VOD or EVENT, not \"\(bytes.string(value))\"; the tag is ignored.")
            }
        case .iFramesOnly:
            if isIFramesOnly { repeated("EXT-X-I-FRAMES-ONLY", "4.4.3") }
            isIFramesOnly = true
        case .partInf:
            guard partInformation == nil else { return repeated("EXT-X-PART-INF", "4.4.3") }
            guard var attributes = try attributes(value, tag: "EXT-X-PART-INF") else { return }
            guard let (target, _) = float(&attributes, "PART-TARGET") else {
                return missing(attributes, "PART-TARGET", section: "4.4.3.7")
            }
            partInformation = PartInformation(partTarget: target, unknownAttributes: unknown(attributes), line: SourceLine(line))
        case .serverControl:
            guard serverControl == nil else { return repeated("EXT-X-SERVER-CONTROL", "4.4.3") }
            guard var attributes = try attributes(value, tag: "EXT-X-SERVER-CONTROL") else { return }
            serverControl = ServerControl(
                canSkipUntil: float(&attributes, "CAN-SKIP-UNTIL")?.0,
                canSkipDateRanges: flag(&attributes, "CAN-SKIP-DATERANGES", onlyYes: true),
                holdBack: float(&attributes, "HOLD-BACK")?.0,
                partHoldBack: float(&attributes, "PART-HOLD-BACK")?.0,
                canBlockReload: flag(&attributes, "CAN-BLOCK-RELOAD", onlyYes: true),
                unknownAttributes: unknown(attributes), line: SourceLine(line))
        default:
            preconditionFailure("not a media playlist tag: \(tag)")
        }
    }

    mutating func repeated(_ name: String, _ section: String) {
        report(.repeatedTag, .error, section, "\(name) appears more than once; the later one is ignored.")
    }

    /// A tag whose whole value is a decimal-integer.
    mutating func integerValue(_ value: Span, _ name: String, _ section: String) -> UInt64? {
        guard let number = DecimalNumbers.integer(bytes, value) else {
            report(.malformedTagValue, .error, section, "\(name) must be a decimal integer, not \"\(bytes.string(value))\".")
            return nil
        }
        return number
    }
}
