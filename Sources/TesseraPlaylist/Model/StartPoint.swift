/// EXT-X-START: where playback should begin (RFC 8216bis §4.4.2.2).
public struct StartPoint: Hashable, Sendable {
    /// Seconds from the start (≥ 0) or back from the end (< 0).
    public let timeOffset: Double
    /// PRECISE=YES: do not render samples before the offset.
    public let isPrecise: Bool
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
