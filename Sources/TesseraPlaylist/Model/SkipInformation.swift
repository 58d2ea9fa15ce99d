/// EXT-X-SKIP in a playlist delta update (RFC 8216bis §4.4.5.2).
public struct SkipInformation: Hashable, Sendable {
    /// SKIPPED-SEGMENTS.
    public var skippedSegments: UInt64
    /// RECENTLY-REMOVED-DATERANGES (tab-separated IDs), when present.
    public var recentlyRemovedDateRanges: [String]?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(skippedSegments: UInt64,
                recentlyRemovedDateRanges: [String]? = nil,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
