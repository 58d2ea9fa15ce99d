/// An EXT-X-PART: a Partial Segment of the parent segment that follows it (RFC 8216bis §4.4.4.9).
public struct PartialSegment: Hashable, Sendable {
    /// URI as written after variable substitution.
    public var uri: String
    /// DURATION in seconds.
    public var duration: Double
    /// DURATION as written.
    public var durationText: String
    /// INDEPENDENT=YES.
    public var isIndependent: Bool
    /// BYTERANGE, resolved against the previous part of the same parent.
    public var byteRange: PlaylistByteRange?
    /// GAP=YES.
    public var isGap: Bool
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(uri: String,
                duration: Double,
                durationText: String,
                isIndependent: Bool = false,
                byteRange: PlaylistByteRange? = nil,
                isGap: Bool = false,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.uri = uri
        self.duration = duration
        self.durationText = durationText
        self.isIndependent = isIndependent
        self.byteRange = byteRange
        self.isGap = isGap
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
