/// A media playlist (RFC 8216bis §4.4.3, §4.4.4, §4.4.5).
public struct MediaPlaylist: Hashable, Sendable {
    /// EXT-X-PLAYLIST-TYPE.
    public enum PlaylistType: Hashable, Sendable, CustomStringConvertible {
        /// The playlist never changes.
        case vod
        /// Segments are only appended.
        case event

        public var description: String { self == .vod ? "VOD" : "EVENT" }
    }

    /// EXT-X-VERSION, if present.
    public let version: Int?
    /// EXT-X-TARGETDURATION in seconds (nil when missing, which is reported).
    public let targetDuration: UInt64?
    /// EXT-X-MEDIA-SEQUENCE (0 when absent).
    public let mediaSequence: UInt64
    /// EXT-X-DISCONTINUITY-SEQUENCE (0 when absent).
    public let discontinuitySequence: UInt64
    /// EXT-X-PLAYLIST-TYPE, if present.
    public let playlistType: PlaylistType?
    /// EXT-X-ENDLIST.
    public let hasEndList: Bool
    /// EXT-X-I-FRAMES-ONLY.
    public let isIFramesOnly: Bool
    /// EXT-X-INDEPENDENT-SEGMENTS.
    public let hasIndependentSegments: Bool
    /// EXT-X-START.
    public let start: StartPoint?
    /// EXT-X-DEFINE tags in order.
    public let defines: [VariableDefinition]
    /// EXT-X-PART-INF.
    public let partInformation: PartInformation?
    /// EXT-X-SERVER-CONTROL.
    public let serverControl: ServerControl?
    /// EXT-X-SKIP (delta updates).
    public let skip: SkipInformation?
    /// The segments in order.
    public let segments: [MediaSegment]
    /// EXT-X-PART tags after the last segment: parts of the segment being published.
    public let pendingParts: [PartialSegment]
    /// EXT-X-DATERANGE tags in order.
    public let dateRanges: [DateRange]
    /// EXT-X-PRELOAD-HINT tags in order.
    public let preloadHints: [PreloadHint]
    /// EXT-X-RENDITION-REPORT tags in order.
    public let renditionReports: [RenditionReport]
    /// Unknown tags outside segments, in order.
    public let unknownTags: [UnknownTag]
}
