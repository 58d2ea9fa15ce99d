/// A multivariant playlist (RFC 8216bis §4.4.6).
public struct MultivariantPlaylist: Hashable, Sendable {
    /// EXT-X-VERSION, if present.
    public var version: Int?
    /// EXT-X-INDEPENDENT-SEGMENTS.
    public var hasIndependentSegments: Bool
    /// EXT-X-START.
    public var start: StartPoint?
    /// EXT-X-DEFINE tags in order.
    public var defines: [VariableDefinition]
    /// EXT-X-STREAM-INF variants in order.
    public var variants: [Variant]
    /// EXT-X-I-FRAME-STREAM-INF variants in order.
    public var iFrameVariants: [Variant]
    /// EXT-X-MEDIA renditions in order.
    public var renditions: [Rendition]
    /// EXT-X-SESSION-DATA in order.
    public var sessionData: [SessionData]
    /// EXT-X-SESSION-KEY in order.
    public var sessionKeys: [SegmentKey]
    /// EXT-X-CONTENT-STEERING.
    public var contentSteering: ContentSteering?
    /// Unknown tags in order.
    public var unknownTags: [UnknownTag]

    /// Creates a value.
    public init(version: Int? = nil,
                hasIndependentSegments: Bool = false,
                start: StartPoint? = nil,
                defines: [VariableDefinition] = [],
                variants: [Variant] = [],
                iFrameVariants: [Variant] = [],
                renditions: [Rendition] = [],
                sessionData: [SessionData] = [],
                sessionKeys: [SegmentKey] = [],
                contentSteering: ContentSteering? = nil,
                unknownTags: [UnknownTag] = []) {
        self.version = version
        self.hasIndependentSegments = hasIndependentSegments
        self.start = start
        self.defines = defines
        self.variants = variants
        self.iFrameVariants = iFrameVariants
        self.renditions = renditions
        self.sessionData = sessionData
        self.sessionKeys = sessionKeys
        self.contentSteering = contentSteering
        self.unknownTags = unknownTags
    }
}
