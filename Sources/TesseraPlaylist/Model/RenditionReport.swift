/// EXT-X-RENDITION-REPORT (RFC 8216bis §4.4.5.4). Attributes may be omitted when equal to the
/// containing playlist's own values.
public struct RenditionReport: Hashable, Sendable {
    /// URI of the other rendition's media playlist.
    public var uri: String?
    /// LAST-MSN.
    public var lastMediaSequence: UInt64?
    /// LAST-PART.
    public var lastPart: UInt64?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(uri: String? = nil,
                lastMediaSequence: UInt64? = nil,
                lastPart: UInt64? = nil,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.uri = uri
        self.lastMediaSequence = lastMediaSequence
        self.lastPart = lastPart
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
