import TesseraPlaylist

/// Every diagnostic the presentation graph adds to the single-playlist ones: found between the
/// playlists of one presentation (draft-pantos-hls-rfc8216bis §6.2.4 and the sections named).
/// docs/DIAGNOSTICS.md presents the same table; a test keeps the two and the tests in step.
public enum PresentationDiagnosticCatalog {
    /// All entries, grouped by area.
    public static let entries: [DiagnosticCatalog.Entry] = [
        // Loading the presentation (§4.4.6.2, §4.4.6.3)
        .init(id: .playlistUnavailable, severity: .error, section: "4.4.6.2", summary: "A referenced media playlist could not be fetched or parsed (status, size limit, redirect loop, not a playlist)."),
        .init(id: .notMediaPlaylist, severity: .error, section: "4.4.6.2", summary: "A variant, rendition or I-frame URI names a multivariant playlist."),
        .init(id: .iFramePlaylistNotIFramesOnly, severity: .error, section: "4.4.6.3", summary: "The playlist of an EXT-X-I-FRAME-STREAM-INF lacks EXT-X-I-FRAMES-ONLY."),
        .init(id: .variantPlaylistIFramesOnly, severity: .warning, section: "4.4.6.2", summary: "The playlist of an EXT-X-STREAM-INF is EXT-X-I-FRAMES-ONLY (it belongs in an EXT-X-I-FRAME-STREAM-INF)."),
        // Timing across playlists (§6.2.4)
        .init(id: .targetDurationMismatch, severity: .error, section: "6.2.4", summary: "Media playlists with different EXT-X-TARGETDURATION (SUBTITLES and I-frame playlists of VOD are exempt)."),
        .init(id: .partTargetMismatch, severity: .warning, section: "4.4.3.8", summary: "Media playlists with different PART-TARGETs whose PART-HOLD-BACK is below 3 × the largest."),
        .init(id: .playlistTypeMismatch, severity: .error, section: "6.2.4", summary: "EXT-X-PLAYLIST-TYPE in some media playlists only, or with different values."),
        .init(id: .endListMismatch, severity: .warning, section: "6.2.4", summary: "EXT-X-ENDLIST in some media playlists only (one rendition ended, another is live)."),
        .init(id: .discontinuitySequenceMisaligned, severity: .error, section: "6.2.4", summary: "Finished media playlists whose segments span different discontinuity sequence numbers."),
        .init(id: .mediaSequenceMisaligned, severity: .warning, section: "6.2.4", summary: "Finished variant and rendition playlists whose first segments have different media sequence numbers."),
        .init(id: .durationMismatch, severity: .warning, section: "6.2.4", summary: "Finished media playlists whose durations differ by more than the smallest target duration."),
        .init(id: .dateTimeInconsistent, severity: .error, section: "6.2.4", summary: "EXT-X-PROGRAM-DATE-TIME in some media playlists and not in others."),
        .init(id: .dateTimeMisaligned, severity: .warning, section: "6.2.4", summary: "Playlists whose first segments have one media sequence number and dates a second or more apart."),
        // Metadata across playlists (§6.2.4, §4.4.2, §8)
        .init(id: .dateRangeMismatch, severity: .error, section: "6.2.4", summary: "A Date Range ID with different attributes in two media playlists."),
        .init(id: .dateRangeMissing, severity: .warning, section: "6.2.4", summary: "A Date Range of a finished playlist missing from another finished playlist that carries Date Ranges."),
        .init(id: .serverControlMismatch, severity: .error, section: "6.2.4", summary: "EXT-X-SERVER-CONTROL in some media playlists only, or with different attributes (CAN-BLOCK-RELOAD, PART-HOLD-BACK, …)."),
        .init(id: .independentSegmentsInconsistent, severity: .warning, section: "4.4.2.1", summary: "EXT-X-INDEPENDENT-SEGMENTS on some media playlists only, and not in the multivariant playlist."),
        .init(id: .startMismatch, severity: .warning, section: "4.4.2.2", summary: "A media playlist's EXT-X-START differs from the multivariant playlist's (the media playlist's is ignored)."),
        .init(id: .versionInconsistent, severity: .warning, section: "8", summary: "Media playlists declare different EXT-X-VERSIONs (a client must support the highest to play every one)."),
        // Structure of the presentation (§4.4.6)
        .init(id: .codecsMismatch, severity: .error, section: "4.4.6.2", summary: "A variant's CODECS misses a media type its rendition groups or its own segments provide (or names video for packed audio)."),
        .init(id: .segmentFormatMismatch, severity: .error, section: "4.4.6.1", summary: "A SUBTITLES playlist whose segments are not WebVTT or fMP4, or a variant or AUDIO/VIDEO playlist of WebVTT."),
        .init(id: .renditionGroupsDiffer, severity: .error, section: "4.4.6.1.1", summary: "Rendition groups of one TYPE with different members, or members whose attributes differ beyond URI, CHANNELS, BIT-DEPTH, SAMPLE-RATE, INSTREAM-ID and STABLE-RENDITION-ID."),
        .init(id: .stableVariantIdDuplicate, severity: .error, section: "4.4.6.2", summary: "Two variants of one pathway share a STABLE-VARIANT-ID."),
        .init(id: .stableRenditionIdDuplicate, severity: .error, section: "4.4.6.1", summary: "Two renditions of one group share a STABLE-RENDITION-ID."),
        .init(id: .pathwayNotEquivalent, severity: .warning, section: "4.4.6.2.1", summary: "Pathways that do not offer the same variants by STABLE-VARIANT-ID (or variants without one) and the same rendition groups."),
        .init(id: .encryptionInconsistent, severity: .warning, section: "6.2.3", summary: "Variants whose segments are encrypted with different methods (some in the clear, some AES-128, …)."),
        .init(id: .sessionKeyMismatch, severity: .error, section: "4.4.6.5", summary: "An EXT-X-SESSION-KEY whose METHOD, KEYFORMAT or KEYFORMATVERSIONS differ from the EXT-X-KEY of the same URI."),
    ]
}
