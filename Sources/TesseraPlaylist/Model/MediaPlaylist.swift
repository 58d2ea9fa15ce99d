/// A media playlist (RFC 8216bis §4.4.3, §4.4.4).
public struct MediaPlaylist: Hashable, Sendable {
    /// `EXT-X-PLAYLIST-TYPE`.
    public enum PlaylistType: Hashable, Sendable {
        /// The playlist never changes.
        case vod
        /// Segments are only appended.
        case event
    }

    /// `EXT-X-VERSION`, if present.
    public let version: Int?
    /// `EXT-X-TARGETDURATION` in seconds.
    public let targetDuration: Int
    /// `EXT-X-MEDIA-SEQUENCE` (0 when absent).
    public let mediaSequence: UInt64
    /// `EXT-X-DISCONTINUITY-SEQUENCE` (0 when absent).
    public let discontinuitySequence: UInt64
    /// `EXT-X-PLAYLIST-TYPE`, if present.
    public let playlistType: PlaylistType?
    /// True when `EXT-X-ENDLIST` is present.
    public let hasEndList: Bool
    /// True when `EXT-X-I-FRAMES-ONLY` is present.
    public let isIFramesOnly: Bool
    /// The segments in order.
    public let segments: [MediaSegment]
}
