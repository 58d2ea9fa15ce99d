/// One media segment of a media playlist (RFC 8216bis §3, §4.4.4).
public struct MediaSegment: Hashable, Sendable {
    /// The URI as written.
    public let uri: String
    /// The EXTINF duration in seconds.
    public let duration: Double
    /// The EXTINF duration exactly as written.
    public let durationText: String
    /// The EXTINF title, if any.
    public let title: String?
    /// The segment's media sequence number.
    public let mediaSequence: UInt64
    /// Its byte range, if any.
    public let byteRange: PlaylistByteRange?
    /// True when an EXT-X-DISCONTINUITY precedes it.
    public let isDiscontinuity: Bool
    /// True when EXT-X-GAP marks it as missing.
    public let isGap: Bool
    /// Every key in force (one per KEYFORMAT; METHOD=NONE entries removed).
    public let keys: [SegmentKey]
    /// The EXT-X-MAP in force, if any.
    public let map: MediaInitializationSection?
    /// The line of the URI.
    public let line: Int

    /// The identity-format key in force, if any.
    public var identityKey: SegmentKey? { keys.first { $0.isIdentity } }
}
