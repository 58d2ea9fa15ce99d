/// EXT-X-SKIP in a playlist delta update (RFC 8216bis §4.4.5.2).
public struct SkipInformation: Hashable, Sendable {
    /// SKIPPED-SEGMENTS.
    public let skippedSegments: UInt64
    /// RECENTLY-REMOVED-DATERANGES (tab-separated IDs), when present.
    public let recentlyRemovedDateRanges: [String]?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
