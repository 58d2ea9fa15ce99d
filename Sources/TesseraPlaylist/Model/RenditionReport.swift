/// EXT-X-RENDITION-REPORT (RFC 8216bis §4.4.5.4). Attributes may be omitted when equal to the
/// containing playlist's own values.
public struct RenditionReport: Hashable, Sendable {
    /// URI of the other rendition's media playlist.
    public let uri: String?
    /// LAST-MSN.
    public let lastMediaSequence: UInt64?
    /// LAST-PART.
    public let lastPart: UInt64?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
