/// An EXT-X-MAP (RFC 8216bis §4.4.4.5).
public struct MediaInitializationSection: Hashable, Sendable {
    /// URI as written after variable substitution.
    public var uri: String
    /// Its byte range, if any.
    public var byteRange: PlaylistByteRange?
    /// The keys in force where the tag appears (an encrypted map needs an explicit IV).
    public var keys: [SegmentKey]
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(uri: String,
                byteRange: PlaylistByteRange? = nil,
                keys: [SegmentKey] = [],
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.uri = uri
        self.byteRange = byteRange
        self.keys = keys
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
