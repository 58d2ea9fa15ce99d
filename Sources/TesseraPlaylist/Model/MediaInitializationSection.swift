/// An `EXT-X-MAP` (RFC 8216bis §4.4.4.5).
public struct MediaInitializationSection: Hashable, Sendable {
    /// The URI as written.
    public let uri: String
    /// Its byte range, if any.
    public let byteRange: PlaylistByteRange?
    /// The keys in force where the tag appears (an encrypted map needs an explicit IV).
    public let keys: [SegmentKey]
    /// The line of the tag.
    public let line: Int
}
