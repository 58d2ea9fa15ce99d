import TesseraPlaylist

/// IDs of the opt-in authoring guidance: Apple's HLS Authoring Specification for Apple Devices,
/// checked on a presentation graph (`AuthoringGuidance`). They never change what Tessera does.
extension DiagnosticID {
    /// A target duration other than the recommended 6 s (AUTH 7.5, 7.6).
    public static let authoringTargetDuration: DiagnosticID = "authoring-target-duration"
    /// A segment longer than its target duration plus 0.5 s (AUTH 7.7).
    public static let authoringSegmentOverTarget: DiagnosticID = "authoring-segment-over-target"
    /// No EXT-X-INDEPENDENT-SEGMENTS in the multivariant playlist nor in every variant playlist (AUTH 9.11, 9.12).
    public static let authoringIndependentSegments: DiagnosticID = "authoring-independent-segments"
    /// A playlist served over plain HTTP (App Transport Security: Apple devices require HTTPS).
    public static let authoringHTTPS: DiagnosticID = "authoring-https"
    /// The first variant — where players start — is audio-only, or the highest of three or more (AUTH 9).
    public static let authoringFirstVariant: DiagnosticID = "authoring-first-variant"
    /// A variant without CODECS, RESOLUTION, FRAME-RATE or AVERAGE-BANDWIDTH where they are required (AUTH 9.1-9.4, 9.14, 9.15).
    public static let authoringVariantAttributes: DiagnosticID = "authoring-variant-attributes"
    /// HDR variants beside variants without VIDEO-RANGE (AUTH 9.16).
    public static let authoringVideoRange: DiagnosticID = "authoring-video-range"
    /// A higher BANDWIDTH with a lower SCORE among variants of one CODECS and VIDEO-RANGE (AUTH 9.19).
    public static let authoringScoreOrder: DiagnosticID = "authoring-score-order"
    /// An audio, subtitle or caption rendition without LANGUAGE (AUTH 8.10).
    public static let authoringRenditionLanguage: DiagnosticID = "authoring-rendition-language"
    /// EXT-X-CONTENT-STEERING without PATHWAY-ID (AUTH 9.18).
    public static let authoringSteeringPathway: DiagnosticID = "authoring-steering-pathway"
    /// PART-HOLD-BACK below 3 × PART-TARGET (AUTH 14.3).
    public static let authoringPartHoldBack: DiagnosticID = "authoring-part-hold-back"
    /// The multivariant playlist's EXT-X-VERSION is below a media playlist's (AUTH 9: feature-compatible versions).
    public static let authoringVersion: DiagnosticID = "authoring-version"
    /// A live media playlist without EXT-X-PROGRAM-DATE-TIME (AUTH 8.4).
    public static let authoringLiveDateTime: DiagnosticID = "authoring-live-date-time"
    /// A finished media playlist without EXT-X-PLAYLIST-TYPE (AUTH 8.6, 8.8).
    public static let authoringPlaylistType: DiagnosticID = "authoring-playlist-type"
    /// Video variants without I-frame playlists (AUTH 6.1).
    public static let authoringIFramePlaylists: DiagnosticID = "authoring-i-frame-playlists"
}
