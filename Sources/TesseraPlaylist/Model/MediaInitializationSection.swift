/// An EXT-X-MAP (RFC 8216bis §4.4.4.5).
public struct MediaInitializationSection: Hashable, Sendable {
    /// URI as written after variable substitution.
    public let uri: String
    /// Its byte range, if any.
    public let byteRange: PlaylistByteRange?
    /// The keys in force where the tag appears (an encrypted map needs an explicit IV).
    public let keys: [SegmentKey]
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
