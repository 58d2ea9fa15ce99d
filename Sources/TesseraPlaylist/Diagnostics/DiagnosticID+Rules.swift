/// IDs of the single-playlist rules (the validator), grouped by the spec section they check.
extension DiagnosticID {
    /// A feature needs a higher EXT-X-VERSION than the playlist declares (§8).
    public static let versionTooLow: DiagnosticID = "version-too-low"
    /// EXT-X-TARGETDURATION is below 1 (§4.4.3.1).
    public static let targetDurationTooSmall: DiagnosticID = "target-duration-too-small"
    /// A segment's EXTINF, rounded, exceeds EXT-X-TARGETDURATION (§4.4.3.1).
    public static let segmentExceedsTargetDuration: DiagnosticID = "segment-exceeds-target-duration"
    /// EXT-X-MEDIA-SEQUENCE or EXT-X-DISCONTINUITY-SEQUENCE after the first segment (§4.4.3.2-3).
    public static let sequenceTagAfterSegments: DiagnosticID = "sequence-tag-after-segments"
    /// EXT-X-KEY METHOD=NONE with other attributes (§4.4.4.4).
    public static let keyNoneWithAttributes: DiagnosticID = "key-none-with-attributes"
    /// An IV on a SAMPLE-AES-CTR or AES-256-GCM key (§4.4.4.4).
    public static let keyIVNotAllowed: DiagnosticID = "key-iv-not-allowed"
    /// An EXT-X-MAP encrypted with AES-128 whose key has no IV (§4.4.4.5).
    public static let encryptedMapWithoutIV: DiagnosticID = "encrypted-map-without-iv"
    /// A date-time without a time zone (§4.4.4.6).
    public static let dateTimeWithoutZone: DiagnosticID = "date-time-without-zone"
    /// A PROGRAM-DATE-TIME earlier than the previous segments' dates and durations allow by a
    /// second or more, so one instant maps to two segments (§6.2.1).
    public static let dateTimeOverlap: DiagnosticID = "date-time-overlap"
    /// With PROGRAM-DATE-TIME in use, a discontinuity segment without one (§6.2.1).
    public static let discontinuityWithoutDateTime: DiagnosticID = "discontinuity-without-date-time"
    /// EXT-X-PART without EXT-X-PART-INF (§4.4.3.7).
    public static let partWithoutPartInformation: DiagnosticID = "part-without-part-inf"
    /// A part longer than PART-TARGET (§4.4.4.9).
    public static let partExceedsPartTarget: DiagnosticID = "part-exceeds-part-target"
    /// A part shorter than 0.85 × PART-TARGET where the spec does not allow it (§4.4.4.9).
    public static let partTooShort: DiagnosticID = "part-too-short"
    /// EXT-X-PART-INF without SERVER-CONTROL PART-HOLD-BACK (§4.4.3.8).
    public static let partHoldBackMissing: DiagnosticID = "part-hold-back-missing"
    /// PART-HOLD-BACK below 2 × PART-TARGET (§4.4.3.8).
    public static let partHoldBackTooSmall: DiagnosticID = "part-hold-back-too-small"
    /// HOLD-BACK below 3 × TARGETDURATION (§4.4.3.8).
    public static let holdBackTooSmall: DiagnosticID = "hold-back-too-small"
    /// CAN-SKIP-UNTIL below 6 × TARGETDURATION (§4.4.3.8).
    public static let skipBoundaryTooSmall: DiagnosticID = "skip-boundary-too-small"
    /// CAN-SKIP-DATERANGES without CAN-SKIP-UNTIL (§4.4.3.8).
    public static let skipDateRangesWithoutSkip: DiagnosticID = "skip-dateranges-without-skip-until"
    /// EXT-X-PRELOAD-HINT in a playlist with EXT-X-ENDLIST (§4.4.5.3).
    public static let preloadHintWithEndList: DiagnosticID = "preload-hint-with-endlist"
    /// Two EXT-X-PRELOAD-HINT tags of one TYPE (§6.2.6).
    public static let preloadHintDuplicateType: DiagnosticID = "preload-hint-duplicate-type"
    /// EXT-X-RENDITION-REPORT with an absolute URI (§4.4.5.4).
    public static let renditionReportAbsoluteURI: DiagnosticID = "rendition-report-absolute-uri"
    /// A date range with no START-DATE and no earlier tag of its ID (§4.4.5.1).
    public static let dateRangeMissingStart: DiagnosticID = "daterange-missing-start-date"
    /// A date range ending before it starts (§4.4.5.1).
    public static let dateRangeEndsBeforeStart: DiagnosticID = "daterange-ends-before-start"
    /// END-DATE ≠ START-DATE + DURATION (§4.4.5.1).
    public static let dateRangeDurationMismatch: DiagnosticID = "daterange-duration-mismatch"
    /// END-ON-NEXT without CLASS, or with DURATION or END-DATE (§4.4.5.1).
    public static let dateRangeEndOnNextMisuse: DiagnosticID = "daterange-end-on-next-misuse"
    /// CUE with both PRE and POST (§4.4.5.1).
    public static let dateRangeCuePreAndPost: DiagnosticID = "daterange-cue-pre-and-post"
    /// Two tags of one date range ID disagree on an attribute (§4.4.5.1).
    public static let dateRangeConflict: DiagnosticID = "daterange-conflict"
    /// Date ranges without any EXT-X-PROGRAM-DATE-TIME (§4.4.5.1).
    public static let dateRangeWithoutDateTime: DiagnosticID = "daterange-without-program-date-time"
    /// EXT-X-START offset beyond the playlist's duration (§4.4.2.2).
    public static let startOffsetBeyondDuration: DiagnosticID = "start-offset-beyond-duration"
    /// EXT-X-DEFINE IMPORT in a multivariant playlist (§4.4.2.3).
    public static let importInMultivariant: DiagnosticID = "import-in-multivariant"
    /// A rendition group with two renditions of one NAME (§4.4.6.1.1).
    public static let renditionDuplicateName: DiagnosticID = "rendition-duplicate-name"
    /// A rendition group with more than one DEFAULT=YES (§4.4.6.1.1).
    public static let renditionMultipleDefaults: DiagnosticID = "rendition-multiple-defaults"
    /// An EXT-X-MEDIA attribute its TYPE may not have, or a missing one it needs (§4.4.6.1).
    public static let renditionAttributeForType: DiagnosticID = "rendition-attribute-for-type"
    /// A variant naming a rendition group that does not exist (§4.4.6.2).
    public static let variantUnknownGroup: DiagnosticID = "variant-unknown-group"
    /// CLOSED-CAPTIONS=NONE on some variants but not all (§4.4.6.2).
    public static let closedCaptionsNoneInconsistent: DiagnosticID = "closed-captions-none-inconsistent"
    /// A variant without CODECS (§4.4.6.2, SHOULD).
    public static let variantWithoutCodecs: DiagnosticID = "variant-without-codecs"
    /// SCORE on some variants but not all (§4.4.6.2, SHOULD).
    public static let scoreOnSomeVariants: DiagnosticID = "score-on-some-variants"
    /// A STABLE-VARIANT-ID or STABLE-RENDITION-ID with characters outside [a-zA-Z0-9+/=._-] (§4.4.6.1-2).
    public static let stableIdentifierCharacters: DiagnosticID = "stable-id-characters"
    /// EXT-X-SESSION-DATA with both or neither of VALUE and URI (§4.4.6.4).
    public static let sessionDataValueOrURI: DiagnosticID = "session-data-value-or-uri"
    /// Two EXT-X-SESSION-DATA of one DATA-ID and LANGUAGE (§4.4.6.4).
    public static let sessionDataDuplicate: DiagnosticID = "session-data-duplicate"
    /// EXT-X-SESSION-KEY with METHOD=NONE (§4.4.6.5).
    public static let sessionKeyMethodNone: DiagnosticID = "session-key-method-none"
    /// EXT-X-CONTENT-STEERING PATHWAY-ID that no variant has (§4.4.6.6).
    public static let steeringPathwayUnknown: DiagnosticID = "steering-pathway-unknown"
}

/// IDs of attribute-syntax rules the spec states for single attributes.
extension DiagnosticID {
    /// KEYFORMATVERSIONS that is not positive integers joined by '/' (§4.4.4.4).
    public static let keyFormatVersionsSyntax: DiagnosticID = "keyformatversions-syntax"
    /// An EXT-X-MAP BYTERANGE without its (mandatory) offset (§4.4.4.5).
    public static let mapByteRangeWithoutOffset: DiagnosticID = "map-byterange-without-offset"
    /// CHANNELS not of the form count[/coding-ids[/special-usage]] (§4.4.6.1).
    public static let channelsSyntax: DiagnosticID = "channels-syntax"
    /// An INSTREAM-ID value the spec does not allow for the rendition's TYPE (§4.4.6.1).
    public static let instreamIdValue: DiagnosticID = "instream-id-value"
    /// REQ-VIDEO-LAYOUT with an empty entry or an unknown specifier (§4.4.6.2).
    public static let videoLayoutSyntax: DiagnosticID = "req-video-layout-syntax"
    /// ALLOWED-CPC not of the form KEYFORMAT:LABEL[/LABEL],… (§4.4.6.2).
    public static let allowedCPCSyntax: DiagnosticID = "allowed-cpc-syntax"
    /// SCORE that is not positive (§4.4.6.2).
    public static let scoreNotPositive: DiagnosticID = "score-not-positive"
    /// AUTOSELECT=NO on a DEFAULT=YES rendition (§4.4.6.1).
    public static let autoselectWithDefault: DiagnosticID = "autoselect-with-default"
    /// Two AUTOSELECT=YES renditions of one group a player cannot tell apart (§4.4.6.1.1).
    public static let autoselectIndistinct: DiagnosticID = "autoselect-indistinct"
    /// Two EXT-X-SESSION-KEY tags with identical attributes (§4.4.6.5).
    public static let sessionKeyDuplicate: DiagnosticID = "session-key-duplicate"
    /// EXT-X-I-FRAME-STREAM-INF with FRAME-RATE, AUDIO, SUBTITLES or CLOSED-CAPTIONS (§4.4.6.3).
    public static let iFrameVariantAttribute: DiagnosticID = "iframe-variant-attribute"
}
