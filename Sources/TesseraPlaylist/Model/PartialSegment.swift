/// An EXT-X-PART: a Partial Segment of the parent segment that follows it (RFC 8216bis §4.4.4.9).
public struct PartialSegment: Hashable, Sendable {
    /// URI as written after variable substitution.
    public let uri: String
    /// DURATION in seconds.
    public let duration: Double
    /// DURATION as written.
    public let durationText: String
    /// INDEPENDENT=YES.
    public let isIndependent: Bool
    /// BYTERANGE, resolved against the previous part of the same parent.
    public let byteRange: PlaylistByteRange?
    /// GAP=YES.
    public let isGap: Bool
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
