/// One media segment of a media playlist (RFC 8216bis §3, §4.4.4).
public struct MediaSegment: Hashable, Sendable {
    /// URI as written after variable substitution (not resolved).
    public let uri: String
    /// The EXTINF duration in seconds.
    public let duration: Double
    /// The EXTINF duration exactly as written.
    public let durationText: String
    /// The EXTINF title, if any.
    public let title: String?
    /// The segment's media sequence number.
    public let mediaSequence: UInt64
    /// The segment's discontinuity sequence number.
    public let discontinuitySequence: UInt64
    /// Its byte range, if any.
    public let byteRange: PlaylistByteRange?
    /// True when an EXT-X-DISCONTINUITY precedes it.
    public let isDiscontinuity: Bool
    /// True when EXT-X-GAP marks it as missing.
    public let isGap: Bool
    /// Its EXT-X-PROGRAM-DATE-TIME, if it has one.
    public let programDateTime: ProgramDateTime?
    /// The EXT-X-BITRATE in force (kbit/s), if any; byte-range segments have none (§4.4.4.8).
    public let bitrate: UInt64?
    /// Every key in force (one per KEYFORMAT; empty after METHOD=NONE).
    public let keys: [SegmentKey]
    /// The EXT-X-MAP in force, if any.
    public var map: MediaInitializationSection? { mapBox?.value }
    /// The map, shared by every segment it applies to (one allocation per EXT-X-MAP, 8 bytes per
    /// segment instead of 80).
    let mapBox: SharedValue<MediaInitializationSection>?
    /// Its partial segments (the EXT-X-PART tags before its EXTINF), in order.
    public let parts: [PartialSegment]
    /// Unknown tags that stood among its tags, in order.
    public let unknownTags: [UnknownTag]
    /// The line of the URI.
    public let line: SourceLine

    /// The identity-format key in force, if any.
    public var identityKey: SegmentKey? { keys.first { $0.isIdentity } }
}
