import TesseraPlaylist

/// The opt-in authoring guidance: Apple HLS Authoring Specification checks on a presentation,
/// each with the specification's section ("AUTH 9.1"). docs/DIAGNOSTICS.md presents the same
/// table; a test keeps the two and the tests in step.
public enum AuthoringDiagnosticCatalog {
    /// All entries.
    public static let entries: [DiagnosticCatalog.Entry] = [
        // Authoring guidance (Apple HLS Authoring Specification; opt-in)
        .init(id: .authoringTargetDuration, severity: .info, section: "AUTH 7.5", summary: "A target duration other than the recommended 6 s."),
        .init(id: .authoringSegmentOverTarget, severity: .warning, section: "AUTH 7.7", summary: "A segment longer than its playlist's target duration plus 0.5 s."),
        .init(id: .authoringIndependentSegments, severity: .warning, section: "AUTH 9.11", summary: "No EXT-X-INDEPENDENT-SEGMENTS in the multivariant playlist, nor in every variant playlist."),
        .init(id: .authoringHTTPS, severity: .warning, section: "AUTH ATS", summary: "A playlist served over plain HTTP (Apple devices require HTTPS unless the app opts out of App Transport Security)."),
        .init(id: .authoringFirstVariant, severity: .warning, section: "AUTH 9", summary: "The first variant, where players start, is audio-only or the highest of three or more."),
        .init(id: .authoringVariantAttributes, severity: .warning, section: "AUTH 9.1", summary: "A variant without CODECS, without RESOLUTION or FRAME-RATE for video, or without AVERAGE-BANDWIDTH; an I-frame variant without CODECS or RESOLUTION."),
        .init(id: .authoringVideoRange, severity: .warning, section: "AUTH 9.16", summary: "PQ or HLG variants beside variants that do not declare VIDEO-RANGE."),
        .init(id: .authoringScoreOrder, severity: .warning, section: "AUTH 9.19", summary: "Among variants of one CODECS and VIDEO-RANGE, a higher BANDWIDTH has a lower SCORE."),
        .init(id: .authoringRenditionLanguage, severity: .warning, section: "AUTH 8.10", summary: "An audio, subtitle or closed-caption rendition without LANGUAGE."),
        .init(id: .authoringSteeringPathway, severity: .warning, section: "AUTH 9.18", summary: "EXT-X-CONTENT-STEERING without PATHWAY-ID (the pathway to start on)."),
        .init(id: .authoringPartHoldBack, severity: .warning, section: "AUTH 14.3", summary: "PART-HOLD-BACK below 3 × PART-TARGET."),
        .init(id: .authoringVersion, severity: .warning, section: "AUTH 9", summary: "The multivariant playlist's EXT-X-VERSION is below a media playlist's: a client that plays it may fail on the media."),
        .init(id: .authoringLiveDateTime, severity: .warning, section: "AUTH 8.4", summary: "A live media playlist without EXT-X-PROGRAM-DATE-TIME."),
        .init(id: .authoringPlaylistType, severity: .info, section: "AUTH 8.6", summary: "A finished media playlist without EXT-X-PLAYLIST-TYPE (VOD)."),
        .init(id: .authoringIFramePlaylists, severity: .warning, section: "AUTH 6.1", summary: "Video variants without I-frame playlists (trick play and thumbnails)."),
    ]
}
