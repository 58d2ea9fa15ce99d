/// What a segment keeps out of its inline storage: what it shares with its neighbours (the keys,
/// the map and the bitrate in force, one box for a whole run of segments) and the tags few
/// segments carry (a title, partial segments, unknown tags, a duration that did not pack). A
/// segment with none of them has no box at all.
struct SegmentExtras: Hashable, Sendable {
    var keys: [SegmentKey] = []
    var mapBox: SharedValue<MediaInitializationSection>?
    var bitrate: UInt64?
    var title: String?
    var parts: [PartialSegment] = []
    var unknownTags: [UnknownTag] = []
    /// The EXTINF text when it did not pack (see `SegmentDuration`).
    var durationText: String?

    var isEmpty: Bool { keys.isEmpty && mapBox == nil && bitrate == nil && isShareable }

    /// True when nothing in it belongs to one segment only, so the next segment may share it.
    var isShareable: Bool { title == nil && parts.isEmpty && unknownTags.isEmpty && durationText == nil }
}
