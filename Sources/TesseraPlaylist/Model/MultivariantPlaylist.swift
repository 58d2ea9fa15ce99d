/// A multivariant playlist (RFC 8216bis §4.4.6).
public struct MultivariantPlaylist: Hashable, Sendable {
    /// EXT-X-VERSION, if present.
    public let version: Int?
    /// EXT-X-INDEPENDENT-SEGMENTS.
    public let hasIndependentSegments: Bool
    /// EXT-X-START.
    public let start: StartPoint?
    /// EXT-X-DEFINE tags in order.
    public let defines: [VariableDefinition]
    /// EXT-X-STREAM-INF variants in order.
    public let variants: [Variant]
    /// EXT-X-I-FRAME-STREAM-INF variants in order.
    public let iFrameVariants: [Variant]
    /// EXT-X-MEDIA renditions in order.
    public let renditions: [Rendition]
    /// EXT-X-SESSION-DATA in order.
    public let sessionData: [SessionData]
    /// EXT-X-SESSION-KEY in order.
    public let sessionKeys: [SegmentKey]
    /// EXT-X-CONTENT-STEERING.
    public let contentSteering: ContentSteering?
    /// Unknown tags in order.
    public let unknownTags: [UnknownTag]
}
