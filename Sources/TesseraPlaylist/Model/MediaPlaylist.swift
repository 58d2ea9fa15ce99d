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
    public var version: Int?
    /// EXT-X-TARGETDURATION in seconds (nil when missing, which is reported).
    public var targetDuration: UInt64?
    /// EXT-X-MEDIA-SEQUENCE (0 when absent).
    public var mediaSequence: UInt64
    /// EXT-X-DISCONTINUITY-SEQUENCE (0 when absent).
    public var discontinuitySequence: UInt64
    /// EXT-X-PLAYLIST-TYPE, if present.
    public var playlistType: PlaylistType?
    /// EXT-X-ENDLIST.
    public var hasEndList: Bool
    /// EXT-X-I-FRAMES-ONLY.
    public var isIFramesOnly: Bool
    /// EXT-X-INDEPENDENT-SEGMENTS.
    public var hasIndependentSegments: Bool
    /// EXT-X-START.
    public var start: StartPoint?
    /// EXT-X-DEFINE tags in order.
    public var defines: [VariableDefinition]
    /// EXT-X-PART-INF.
    public var partInformation: PartInformation?
    /// EXT-X-SERVER-CONTROL.
    public var serverControl: ServerControl?
    /// EXT-X-SKIP (delta updates).
    public var skip: SkipInformation?
    /// The segments in order.
    public var segments: MediaSegments
    /// EXT-X-PART tags after the last segment: parts of the segment being published.
    public var pendingParts: [PartialSegment]
    /// EXT-X-DATERANGE tags in order.
    public var dateRanges: [DateRange]
    /// EXT-X-PRELOAD-HINT tags in order.
    public var preloadHints: [PreloadHint]
    /// EXT-X-RENDITION-REPORT tags in order.
    public var renditionReports: [RenditionReport]
    /// Unknown tags outside segments, in order.
    public var unknownTags: [UnknownTag]

    /// Creates a value.
    public init(version: Int? = nil,
                targetDuration: UInt64? = nil,
                mediaSequence: UInt64 = 0,
                discontinuitySequence: UInt64 = 0,
                playlistType: PlaylistType? = nil,
                hasEndList: Bool = false,
                isIFramesOnly: Bool = false,
                hasIndependentSegments: Bool = false,
                start: StartPoint? = nil,
                defines: [VariableDefinition] = [],
                partInformation: PartInformation? = nil,
                serverControl: ServerControl? = nil,
                skip: SkipInformation? = nil,
                segments: MediaSegments = [],
                pendingParts: [PartialSegment] = [],
                dateRanges: [DateRange] = [],
                preloadHints: [PreloadHint] = [],
                renditionReports: [RenditionReport] = [],
                unknownTags: [UnknownTag] = []) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.isIFramesOnly = isIFramesOnly
        self.hasIndependentSegments = hasIndependentSegments
        self.start = start
        self.defines = defines
        self.partInformation = partInformation
        self.serverControl = serverControl
        self.skip = skip
        self.segments = segments
        self.pendingParts = pendingParts
        self.dateRanges = dateRanges
        self.preloadHints = preloadHints
        self.renditionReports = renditionReports
        self.unknownTags = unknownTags
    }
}
