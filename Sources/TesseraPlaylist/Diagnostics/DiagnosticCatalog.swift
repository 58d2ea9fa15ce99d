/// Every diagnostic the playlist engine can report: ID, severity, spec section and what it means.
/// docs/DIAGNOSTICS.md presents the same table; a test keeps the two and the tests in step.
public enum DiagnosticCatalog {
    /// One catalogued diagnostic.
    public struct Entry: Sendable {
        /// The stable ID.
        public let id: DiagnosticID
        /// Its severity.
        public let severity: Diagnostic.Severity
        /// The section of draft-pantos-hls-rfc8216bis.
        public let section: String
        /// What it means.
        public let summary: String

        /// Creates an entry (other catalogues, such as the presentation graph's, use the same shape).
        public init(id: DiagnosticID, severity: Diagnostic.Severity, section: String, summary: String) {
            self.id = id
            self.severity = severity
            self.section = section
            self.summary = summary
        }
    }

    /// All entries, grouped by area.
    public static let entries: [Entry] = [
        // Text and syntax (§4.1, §4.2)
        Entry(id: .byteOrderMark, severity: .error, section: "4.1", summary: "The document starts with a UTF-8 byte order mark."),
        Entry(id: .malformedAttributeList, severity: .error, section: "4.2", summary: "An attribute list cannot be split (no '=', unterminated quote, trailing comma, repeated name); the tag is ignored."),
        Entry(id: .attributeNameCharacters, severity: .error, section: "4.2", summary: "An attribute name uses characters outside A-Z, 0-9 and '-'."),
        Entry(id: .malformedAttribute, severity: .error, section: "4.2", summary: "An attribute value is not of its type (integer, decimal, hex, resolution, quoted string); it is ignored."),
        Entry(id: .missingAttribute, severity: .error, section: "4.4", summary: "A REQUIRED attribute is missing; the tag is ignored."),
        Entry(id: .unknownEnumeratedValue, severity: .warning, section: "6.3.1", summary: "An enumerated value the spec does not define; the tag is ignored as §6.3.1 says."),
        Entry(id: .malformedTagValue, severity: .error, section: "4.4", summary: "A tag's value is not of its form (integer, EXTINF, BYTERANGE, date-time)."),
        Entry(id: .repeatedTag, severity: .error, section: "4.4", summary: "A tag that may appear once appears again."),
        Entry(id: .variableVersion, severity: .error, section: "8", summary: "Variable substitution below EXT-X-VERSION 8 (11 with QUERYPARAM)."),
        Entry(id: .importInMultivariant, severity: .error, section: "4.4.2.3", summary: "EXT-X-DEFINE IMPORT in a multivariant playlist."),
        Entry(id: .versionTooLow, severity: .error, section: "8", summary: "A feature needs a higher EXT-X-VERSION than declared (IV 2, decimal EXTINF 3, BYTERANGE and I-FRAMES-ONLY 4, SAMPLE-AES and KEYFORMAT 5, MAP 5/6, SERVICEn 7, SKIP 9/10, REQ- 12, non-CC INSTREAM-ID 13)."),
        // Media playlists and segments (§4.4.3, §4.4.4)
        Entry(id: .missingTargetDuration, severity: .error, section: "4.4.3.1", summary: "A media playlist without EXT-X-TARGETDURATION."),
        Entry(id: .targetDurationTooSmall, severity: .error, section: "4.4.3.1", summary: "EXT-X-TARGETDURATION below 1."),
        Entry(id: .segmentExceedsTargetDuration, severity: .error, section: "4.4.3.1", summary: "A segment's EXTINF, rounded to the nearest integer, exceeds EXT-X-TARGETDURATION."),
        Entry(id: .sequenceTagAfterSegments, severity: .error, section: "4.4.3.2", summary: "EXT-X-MEDIA-SEQUENCE or EXT-X-DISCONTINUITY-SEQUENCE after the first segment."),
        Entry(id: .segmentWithoutDuration, severity: .error, section: "4.4.4.1", summary: "A URI line with no EXTINF before it; the segment is ignored."),
        Entry(id: .danglingSegmentTags, severity: .error, section: "4.4.4.1", summary: "The playlist ends with an EXTINF that no URI follows."),
        Entry(id: .byteRangeWithoutPrevious, severity: .error, section: "4.4.4.2", summary: "A byte range without an offset whose previous segment (or part) is not a range of the same resource."),
        Entry(id: .keyNoneWithAttributes, severity: .error, section: "4.4.4.4", summary: "EXT-X-KEY METHOD=NONE with other attributes."),
        Entry(id: .keyIVNotAllowed, severity: .error, section: "4.4.4.4", summary: "An IV on a SAMPLE-AES-CTR or AES-256-GCM key."),
        Entry(id: .encryptedMapWithoutIV, severity: .error, section: "4.4.4.5", summary: "An EXT-X-MAP encrypted with AES-128 by a key without an IV."),
        Entry(id: .dateTimeOverlap, severity: .error, section: "6.2.1", summary: "A PROGRAM-DATE-TIME a second or more earlier than the previous segments' dates and durations allow (an ambiguous date-to-segment mapping)."),
        Entry(id: .dateTimeWithoutZone, severity: .warning, section: "4.4.4.6", summary: "An EXT-X-PROGRAM-DATE-TIME without a time zone (read as UTC)."),
        Entry(id: .discontinuityWithoutDateTime, severity: .warning, section: "6.2.1", summary: "A discontinuity segment without EXT-X-PROGRAM-DATE-TIME in a playlist that uses them."),
        Entry(id: .startOffsetBeyondDuration, severity: .warning, section: "4.4.2.2", summary: "EXT-X-START TIME-OFFSET beyond the playlist's duration."),
        // Low-Latency HLS (§4.4.3.7-8, §4.4.4.9, §4.4.5.3-4)
        Entry(id: .partWithoutPartInformation, severity: .error, section: "4.4.3.7", summary: "EXT-X-PART without EXT-X-PART-INF."),
        Entry(id: .partExceedsPartTarget, severity: .error, section: "4.4.4.9", summary: "A part longer than PART-TARGET."),
        Entry(id: .partTooShort, severity: .error, section: "4.4.4.9", summary: "A part shorter than 0.85 × PART-TARGET that is not independent, a gap, before a gap, or its parent's last."),
        Entry(id: .partHoldBackMissing, severity: .error, section: "4.4.3.8", summary: "EXT-X-PART-INF without SERVER-CONTROL PART-HOLD-BACK."),
        Entry(id: .partHoldBackTooSmall, severity: .error, section: "4.4.3.8", summary: "PART-HOLD-BACK below 2 × PART-TARGET."),
        Entry(id: .holdBackTooSmall, severity: .error, section: "4.4.3.8", summary: "HOLD-BACK below 3 × EXT-X-TARGETDURATION."),
        Entry(id: .skipBoundaryTooSmall, severity: .error, section: "4.4.3.8", summary: "CAN-SKIP-UNTIL below 6 × EXT-X-TARGETDURATION."),
        Entry(id: .skipDateRangesWithoutSkip, severity: .error, section: "4.4.3.8", summary: "CAN-SKIP-DATERANGES without CAN-SKIP-UNTIL."),
        Entry(id: .preloadHintWithEndList, severity: .error, section: "4.4.5.3", summary: "EXT-X-PRELOAD-HINT in a playlist with EXT-X-ENDLIST."),
        Entry(id: .preloadHintDuplicateType, severity: .warning, section: "6.2.6", summary: "Two EXT-X-PRELOAD-HINT tags of one TYPE."),
        Entry(id: .renditionReportAbsoluteURI, severity: .error, section: "4.4.5.4", summary: "EXT-X-RENDITION-REPORT with an absolute URI."),
        // Date ranges (§4.4.5.1)
        Entry(id: .dateRangeWithoutDateTime, severity: .error, section: "4.4.5.1", summary: "EXT-X-DATERANGE without any EXT-X-PROGRAM-DATE-TIME in the playlist."),
        Entry(id: .dateRangeMissingStart, severity: .error, section: "4.4.5.1", summary: "A date range with no START-DATE and no earlier tag of its ID."),
        Entry(id: .dateRangeEndsBeforeStart, severity: .error, section: "4.4.5.1", summary: "END-DATE before START-DATE."),
        Entry(id: .dateRangeDurationMismatch, severity: .error, section: "4.4.5.1", summary: "END-DATE differs from START-DATE + DURATION."),
        Entry(id: .dateRangeEndOnNextMisuse, severity: .error, section: "4.4.5.1", summary: "END-ON-NEXT without CLASS, or with DURATION or END-DATE."),
        Entry(id: .dateRangeCuePreAndPost, severity: .error, section: "4.4.5.1", summary: "CUE with both PRE and POST."),
        Entry(id: .dateRangeConflict, severity: .error, section: "4.4.5.1", summary: "Two tags of one date range ID give an attribute different values."),
        // Multivariant playlists (§4.4.6)
        Entry(id: .variantWithoutURI, severity: .error, section: "4.4.6.2", summary: "EXT-X-STREAM-INF not followed by a URI line."),
        Entry(id: .uriWithoutStreamInf, severity: .error, section: "4.4.6.2", summary: "A URI line in a multivariant playlist with no EXT-X-STREAM-INF before it."),
        Entry(id: .renditionDuplicateName, severity: .error, section: "4.4.6.1.1", summary: "Two renditions of one group share a NAME."),
        Entry(id: .renditionMultipleDefaults, severity: .error, section: "4.4.6.1.1", summary: "More than one DEFAULT=YES rendition in a group."),
        Entry(id: .renditionAttributeForType, severity: .error, section: "4.4.6.1", summary: "An EXT-X-MEDIA attribute its TYPE may not have (FORCED, CHANNELS, BIT-DEPTH, SAMPLE-RATE, a URI on CLOSED-CAPTIONS) or lacks (INSTREAM-ID, a SUBTITLES URI)."),
        Entry(id: .variantUnknownGroup, severity: .error, section: "4.4.6.2", summary: "A variant names a rendition group that does not exist."),
        Entry(id: .closedCaptionsNoneInconsistent, severity: .error, section: "4.4.6.2", summary: "CLOSED-CAPTIONS=NONE on some variants but not all."),
        Entry(id: .variantWithoutCodecs, severity: .warning, section: "4.4.6.2", summary: "A variant without CODECS."),
        Entry(id: .scoreOnSomeVariants, severity: .warning, section: "4.4.6.2", summary: "SCORE on some variants but not all."),
        Entry(id: .stableIdentifierCharacters, severity: .error, section: "4.4.6.2", summary: "A STABLE-VARIANT-ID or STABLE-RENDITION-ID with characters outside a-z, A-Z, 0-9, + / = . _ -."),
        Entry(id: .sessionDataValueOrURI, severity: .error, section: "4.4.6.4", summary: "EXT-X-SESSION-DATA with both or neither of VALUE and URI."),
        Entry(id: .sessionDataDuplicate, severity: .error, section: "4.4.6.4", summary: "Two EXT-X-SESSION-DATA of one DATA-ID and LANGUAGE."),
        Entry(id: .sessionKeyMethodNone, severity: .error, section: "4.4.6.5", summary: "EXT-X-SESSION-KEY with METHOD=NONE."),
        Entry(id: .sessionKeyDuplicate, severity: .error, section: "4.4.6.5", summary: "Two EXT-X-SESSION-KEY tags with identical METHOD, URI, IV, KEYFORMAT and KEYFORMATVERSIONS."),
        Entry(id: .autoselectIndistinct, severity: .warning, section: "4.4.6.1.1", summary: "Two AUTOSELECT=YES renditions of one group with the same LANGUAGE, ASSOC-LANGUAGE, FORCED and CHARACTERISTICS (a player cannot tell them apart)."),
        Entry(id: .autoselectWithDefault, severity: .error, section: "4.4.6.1", summary: "AUTOSELECT=NO on a DEFAULT=YES rendition."),
        Entry(id: .steeringPathwayUnknown, severity: .error, section: "4.4.6.6", summary: "EXT-X-CONTENT-STEERING PATHWAY-ID that no variant has."),
        Entry(id: .iFrameVariantAttribute, severity: .error, section: "4.4.6.3", summary: "EXT-X-I-FRAME-STREAM-INF with FRAME-RATE, AUDIO, SUBTITLES or CLOSED-CAPTIONS."),
        // Attribute syntax (§4.4.4-4.4.6)
        Entry(id: .keyFormatVersionsSyntax, severity: .error, section: "4.4.4.4", summary: "KEYFORMATVERSIONS that is not positive integers joined by '/'."),
        Entry(id: .mapByteRangeWithoutOffset, severity: .error, section: "4.4.4.5", summary: "An EXT-X-MAP BYTERANGE without its mandatory offset."),
        Entry(id: .channelsSyntax, severity: .error, section: "4.4.6.1", summary: "CHANNELS not of the form count[/coding-ids[/special-usage-ids]]."),
        Entry(id: .instreamIdValue, severity: .error, section: "4.4.6.1", summary: "INSTREAM-ID other than CC1-CC4 / SERVICE1-63 on CLOSED-CAPTIONS, or with characters outside A-Z a-z 0-9 '.' on other types."),
        Entry(id: .videoLayoutSyntax, severity: .error, section: "4.4.6.2", summary: "REQ-VIDEO-LAYOUT with an empty entry, a repeated or an unknown specifier."),
        Entry(id: .allowedCPCSyntax, severity: .error, section: "4.4.6.2", summary: "ALLOWED-CPC not of the form KEYFORMAT:LABEL[/LABEL] entries joined by ','."),
        Entry(id: .scoreNotPositive, severity: .error, section: "4.4.6.2", summary: "SCORE that is not positive."),
    ]
}
