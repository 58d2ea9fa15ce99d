/// EXT-X-START: where playback should begin (RFC 8216bis §4.4.2.2).
public struct StartPoint: Hashable, Sendable {
    /// Seconds from the start (≥ 0) or back from the end (< 0).
    public var timeOffset: Double
    /// PRECISE=YES: do not render samples before the offset.
    public var isPrecise: Bool
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(timeOffset: Double,
                isPrecise: Bool = false,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.timeOffset = timeOffset
        self.isPrecise = isPrecise
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
