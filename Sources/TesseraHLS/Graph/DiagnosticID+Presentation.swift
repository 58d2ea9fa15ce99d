import TesseraPlaylist

/// IDs of the cross-playlist rules (the presentation graph), catalogued in
/// `PresentationDiagnosticCatalog` and docs/DIAGNOSTICS.md.
extension DiagnosticID {
    /// A referenced media playlist could not be fetched or parsed (§4.4.6.2).
    public static let playlistUnavailable: DiagnosticID = "playlist-unavailable"
    /// A URI that must name a media playlist names a multivariant playlist (§4.4.6.2).
    public static let notMediaPlaylist: DiagnosticID = "not-a-media-playlist"
    /// An EXT-X-I-FRAME-STREAM-INF playlist without EXT-X-I-FRAMES-ONLY (§4.4.6.3).
    public static let iFramePlaylistNotIFramesOnly: DiagnosticID = "i-frame-playlist-not-i-frames-only"
    /// An EXT-X-STREAM-INF playlist with EXT-X-I-FRAMES-ONLY (§4.4.6.2).
    public static let variantPlaylistIFramesOnly: DiagnosticID = "variant-playlist-i-frames-only"
    /// Media playlists with different EXT-X-TARGETDURATION (§6.2.4).
    public static let targetDurationMismatch: DiagnosticID = "target-duration-mismatch"
    /// Different PART-TARGETs with a PART-HOLD-BACK below 3 × the largest (§4.4.3.8).
    public static let partTargetMismatch: DiagnosticID = "part-target-mismatch"
    /// EXT-X-PLAYLIST-TYPE on some media playlists only, or with different values (§6.2.4).
    public static let playlistTypeMismatch: DiagnosticID = "playlist-type-mismatch"
    /// EXT-X-ENDLIST on some media playlists only (§6.2.4).
    public static let endListMismatch: DiagnosticID = "end-list-mismatch"
    /// Finished playlists spanning different discontinuity sequence numbers (§6.2.4).
    public static let discontinuitySequenceMisaligned: DiagnosticID = "discontinuity-sequence-misaligned"
    /// Finished variant and rendition playlists starting at different media sequence numbers (§6.2.4).
    public static let mediaSequenceMisaligned: DiagnosticID = "media-sequence-misaligned"
    /// Finished playlists whose durations differ by more than the smallest target duration (§6.2.4).
    public static let durationMismatch: DiagnosticID = "duration-mismatch"
    /// EXT-X-PROGRAM-DATE-TIME in some media playlists only (§6.2.4).
    public static let dateTimeInconsistent: DiagnosticID = "date-time-inconsistent"
    /// Playlists starting at one media sequence number with first dates a second or more apart (§6.2.4).
    public static let dateTimeMisaligned: DiagnosticID = "date-time-misaligned"
    /// A Date Range ID with different attributes in two media playlists (§6.2.4).
    public static let dateRangeMismatch: DiagnosticID = "date-range-mismatch"
    /// A Date Range of one finished playlist missing from another that carries Date Ranges (§6.2.4).
    public static let dateRangeMissing: DiagnosticID = "date-range-missing"
    /// EXT-X-SERVER-CONTROL in some media playlists only, or with different attributes (§6.2.4).
    public static let serverControlMismatch: DiagnosticID = "server-control-mismatch"
    /// EXT-X-INDEPENDENT-SEGMENTS on some media playlists only, and not in the multivariant one (§4.4.2.1).
    public static let independentSegmentsInconsistent: DiagnosticID = "independent-segments-inconsistent"
    /// An EXT-X-START in a media playlist that differs from the multivariant playlist's (§4.4.2.2).
    public static let startMismatch: DiagnosticID = "start-mismatch"
    /// Media playlists declaring different EXT-X-VERSIONs (§8).
    public static let versionInconsistent: DiagnosticID = "version-inconsistent"
    /// A variant's CODECS misses a media type its renditions or segments provide (§4.4.6.2).
    public static let codecsMismatch: DiagnosticID = "codecs-mismatch"
    /// A playlist whose segments are not of the kind its role needs (§4.4.6.1).
    public static let segmentFormatMismatch: DiagnosticID = "segment-format-mismatch"
    /// Rendition groups of one TYPE with different members or attributes (§4.4.6.1.1).
    public static let renditionGroupsDiffer: DiagnosticID = "rendition-groups-differ"
    /// Two variants of one pathway with the same STABLE-VARIANT-ID (§4.4.6.2).
    public static let stableVariantIdDuplicate: DiagnosticID = "stable-variant-id-duplicate"
    /// Two renditions of one group with the same STABLE-RENDITION-ID (§4.4.6.1).
    public static let stableRenditionIdDuplicate: DiagnosticID = "stable-rendition-id-duplicate"
    /// Pathways that do not offer the same variants (by STABLE-VARIANT-ID) and groups (§4.4.6.2.1).
    public static let pathwayNotEquivalent: DiagnosticID = "pathway-not-equivalent"
    /// Variants whose segments are encrypted with different methods (§6.2.3).
    public static let encryptionInconsistent: DiagnosticID = "encryption-inconsistent"
    /// An EXT-X-SESSION-KEY whose METHOD, KEYFORMAT or KEYFORMATVERSIONS differ from an EXT-X-KEY of its URI (§4.4.6.5).
    public static let sessionKeyMismatch: DiagnosticID = "session-key-mismatch"
}
