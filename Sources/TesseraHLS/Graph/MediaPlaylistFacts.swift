import TesseraPlaylist

/// What the cross-playlist rules need to know about one media playlist, taken in one pass so
/// the playlist itself can be released: a presentation of 250 children keeps 250 of these, not
/// 250 playlists.
public struct MediaPlaylistFacts: Hashable, Sendable {
    /// How many of a playlist's segments carry something.
    public enum Coverage: Hashable, Sendable {
        /// No segment.
        case none
        /// Some segments.
        case some
        /// Every segment (a playlist without segments counts as none).
        case all
    }

    /// EXT-X-VERSION.
    public var version: Int?
    /// EXT-X-TARGETDURATION.
    public var targetDuration: UInt64?
    /// EXT-X-PART-INF PART-TARGET.
    public var partTarget: Double?
    /// EXT-X-PLAYLIST-TYPE.
    public var playlistType: MediaPlaylist.PlaylistType?
    /// EXT-X-ENDLIST.
    public var hasEndList: Bool
    /// EXT-X-I-FRAMES-ONLY.
    public var isIFramesOnly: Bool
    /// EXT-X-INDEPENDENT-SEGMENTS.
    public var hasIndependentSegments: Bool
    /// EXT-X-START.
    public var start: StartPoint?
    /// The first segment's media sequence number.
    public var mediaSequence: UInt64
    /// The first segment's discontinuity sequence number.
    public var firstDiscontinuitySequence: UInt64
    /// The last segment's discontinuity sequence number.
    public var lastDiscontinuitySequence: UInt64
    /// The number of segments.
    public var segmentCount: Int
    /// The sum of the segments' EXTINF durations, seconds.
    public var duration: Double
    /// The longest segment's EXTINF duration, seconds.
    public var longestSegment: Double
    /// Which segments have a date (EXT-X-PROGRAM-DATE-TIME, given or carried forward).
    public var dateTimes: Coverage
    /// The first segment's date, seconds since 1970, derived from the first dated segment.
    public var firstDate: Double?
    /// EXT-X-DATERANGE tags.
    public var dateRanges: [DateRange]
    /// EXT-X-SERVER-CONTROL.
    public var serverControl: ServerControl?
    /// The encryption methods in force over the segments, in order of first use ("NONE" when a
    /// segment is in the clear).
    public var encryptionMethods: [EncryptionMethod]
    /// The first EXT-X-KEY of each URI the multivariant playlist's EXT-X-SESSION-KEYs name.
    public var sessionKeyMatches: [SegmentKey]
    /// The first segment's container.
    public var format: SegmentFormat?

    /// The facts of `playlist`; `sessionKeyURIs` are the URIs whose first EXT-X-KEY is kept.
    public init(_ playlist: MediaPlaylist, sessionKeyURIs: Set<String> = []) {
        version = playlist.version
        targetDuration = playlist.targetDuration
        partTarget = playlist.partInformation?.partTarget
        playlistType = playlist.playlistType
        hasEndList = playlist.hasEndList
        isIFramesOnly = playlist.isIFramesOnly
        hasIndependentSegments = playlist.hasIndependentSegments
        start = playlist.start
        serverControl = playlist.serverControl
        dateRanges = playlist.dateRanges
        let segments = playlist.segments
        segmentCount = segments.count
        mediaSequence = segments.first?.mediaSequence ?? playlist.mediaSequence
        firstDiscontinuitySequence = segments.first?.discontinuitySequence ?? playlist.discontinuitySequence
        lastDiscontinuitySequence = segments.last?.discontinuitySequence ?? playlist.discontinuitySequence
        format = segments.first.map { SegmentFormat(uri: $0.uri, hasMap: $0.map != nil) }
        let totals = playlist.segmentTotals
        duration = totals.duration
        longestSegment = totals.longestDuration
        firstDate = totals.firstDate
        dateTimes = totals.datedCount == 0 ? .none : totals.datedCount == totals.count ? .all : .some
        encryptionMethods = totals.encryptionMethods
        var matches: [SegmentKey] = []
        if !sessionKeyURIs.isEmpty {
            var seen = Set<String>()
            for segment in segments {
                for key in segment.keys {
                    if let uri = key.uri, sessionKeyURIs.contains(uri), seen.insert(uri).inserted { matches.append(key) }
                }
            }
        }
        sessionKeyMatches = matches
    }

    /// True when the playlist will not change: ENDLIST, or PLAYLIST-TYPE VOD.
    public var isFinished: Bool { hasEndList || playlistType == .vod }
}
