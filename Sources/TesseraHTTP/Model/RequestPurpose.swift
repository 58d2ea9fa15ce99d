/// What a fetch is for, so limits, policies and redacted events can differ per purpose.
public struct RequestPurpose: Hashable, Sendable, CustomStringConvertible {
    /// Stable text.
    public let rawValue: String
    /// Creates a purpose (library users may define their own).
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A general API call.
    public static let general = RequestPurpose("general")
    /// A multivariant playlist.
    public static let multivariantPlaylist = RequestPurpose("multivariant-playlist")
    /// A media playlist.
    public static let mediaPlaylist = RequestPurpose("media-playlist")
    /// A media segment.
    public static let segment = RequestPurpose("segment")
    /// An EXT-X-MAP initialization section.
    public static let map = RequestPurpose("map")
    /// An EXT-X-KEY key.
    public static let key = RequestPurpose("key")
    /// A partial segment (EXT-X-PART) or a preload hint.
    public static let part = RequestPurpose("part")
    /// A plain reload of a live media playlist (a poll, or a delta update without `_HLS_msn`).
    public static let liveReload = RequestPurpose("live-reload")
    /// A blocking reload (`_HLS_msn`): the server holds it until the part or segment asked for
    /// exists, so its time to the first byte is the request's own (the reloader derives it from
    /// the playlist's durations); `PurposeLimits.hls` has no entry for it.
    public static let blockingReload = RequestPurpose("blocking-reload")
    /// A Content Steering manifest.
    public static let steeringManifest = RequestPurpose("steering-manifest")
    /// EXT-X-SESSION-DATA, chapters and other data a presentation points to.
    public static let sessionData = RequestPurpose("session-data")
}
