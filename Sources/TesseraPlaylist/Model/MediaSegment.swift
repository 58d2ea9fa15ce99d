/// One media segment of a media playlist (RFC 8216bis §3, §4.4.4).
///
/// Stored compactly (112 bytes inline), because live EVENT playlists grow to hundreds of
/// thousands of segments: the map is shared by reference between the segments it applies to,
/// and the tags most segments lack (title, program date-time, bitrate, parts, unknown tags) live
/// in one shared box that is absent when all are.
public struct MediaSegment: Hashable, Sendable {
    /// URI as written after variable substitution (not resolved).
    public var uri: String
    /// The EXTINF duration in seconds.
    public var duration: Double
    /// The EXTINF duration exactly as written.
    public var durationText: String
    /// The segment's media sequence number.
    public var mediaSequence: UInt64
    /// The segment's discontinuity sequence number.
    public var discontinuitySequence: UInt64
    /// Its byte range, if any.
    public var byteRange: PlaylistByteRange?
    /// Every key in force (one per KEYFORMAT; empty after METHOD=NONE).
    public var keys: [SegmentKey]
    /// The map, shared by every segment it applies to (one allocation per EXT-X-MAP).
    var mapBox: SharedValue<MediaInitializationSection>?
    /// The rarer tags, or nil when the segment has none of them.
    private var details: SharedValue<Details>?
    /// The line of the URI.
    public var line: SourceLine
    /// True when an EXT-X-DISCONTINUITY precedes it.
    public var isDiscontinuity: Bool
    /// True when EXT-X-GAP marks it as missing.
    public var isGap: Bool

    /// The tags few segments carry.
    private struct Details: Hashable, Sendable {
        var title: String?
        var programDateTime: ProgramDateTime?
        var bitrate: UInt64?
        var parts: [PartialSegment] = []
        var unknownTags: [UnknownTag] = []

        var isEmpty: Bool { title == nil && programDateTime == nil && bitrate == nil && parts.isEmpty && unknownTags.isEmpty }
    }

    /// Creates a segment; `line` is where its URI was parsed (0 for one built in code).
    public init(uri: String, duration: Double, durationText: String? = nil, title: String? = nil,
                mediaSequence: UInt64, discontinuitySequence: UInt64 = 0, byteRange: PlaylistByteRange? = nil,
                isDiscontinuity: Bool = false, isGap: Bool = false, programDateTime: ProgramDateTime? = nil,
                bitrate: UInt64? = nil, keys: [SegmentKey] = [], map: MediaInitializationSection? = nil,
                parts: [PartialSegment] = [], unknownTags: [UnknownTag] = [], line: SourceLine = SourceLine(0)) {
        self.init(uri: uri, duration: duration, durationText: durationText ?? DecimalText.format(duration), title: title,
                  mediaSequence: mediaSequence, discontinuitySequence: discontinuitySequence, byteRange: byteRange,
                  isDiscontinuity: isDiscontinuity, isGap: isGap, programDateTime: programDateTime, bitrate: bitrate,
                  keys: keys, mapBox: map.map(SharedValue.init), parts: parts, unknownTags: unknownTags, line: line)
    }

    /// The parser's initializer: the map box is shared with the segments before.
    init(uri: String, duration: Double, durationText: String, title: String?, mediaSequence: UInt64,
         discontinuitySequence: UInt64, byteRange: PlaylistByteRange?, isDiscontinuity: Bool, isGap: Bool,
         programDateTime: ProgramDateTime?, bitrate: UInt64?, keys: [SegmentKey], mapBox: SharedValue<MediaInitializationSection>?,
         parts: [PartialSegment], unknownTags: [UnknownTag], line: SourceLine) {
        self.uri = uri
        self.duration = duration
        self.durationText = durationText
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.byteRange = byteRange
        self.keys = keys
        self.mapBox = mapBox
        self.line = line
        self.isDiscontinuity = isDiscontinuity
        self.isGap = isGap
        let details = Details(title: title, programDateTime: programDateTime, bitrate: bitrate, parts: parts, unknownTags: unknownTags)
        self.details = details.isEmpty ? nil : SharedValue(details)
    }

    /// The EXT-X-MAP in force, if any.
    public var map: MediaInitializationSection? {
        get { mapBox?.value }
        set {
            guard newValue != mapBox?.value else { return }
            mapBox = newValue.map(SharedValue.init)
        }
    }

    /// The EXTINF title, if any.
    public var title: String? {
        get { details?.value.title }
        set { updateDetails { $0.title = newValue } }
    }

    /// Its EXT-X-PROGRAM-DATE-TIME, if it has one.
    public var programDateTime: ProgramDateTime? {
        get { details?.value.programDateTime }
        set { updateDetails { $0.programDateTime = newValue } }
    }

    /// The EXT-X-BITRATE in force (kbit/s), if any; byte-range segments have none (§4.4.4.8).
    public var bitrate: UInt64? {
        get { details?.value.bitrate }
        set { updateDetails { $0.bitrate = newValue } }
    }

    /// Its partial segments (the EXT-X-PART tags before its EXTINF), in order.
    public var parts: [PartialSegment] {
        get { details?.value.parts ?? [] }
        set { updateDetails { $0.parts = newValue } }
    }

    /// Unknown tags that stood among its tags, in order.
    public var unknownTags: [UnknownTag] {
        get { details?.value.unknownTags ?? [] }
        set { updateDetails { $0.unknownTags = newValue } }
    }

    /// The identity-format key in force, if any.
    public var identityKey: SegmentKey? { keys.first { $0.isIdentity } }

    private mutating func updateDetails(_ change: (inout Details) -> Void) {
        var value = details?.value ?? Details()
        change(&value)
        details = value.isEmpty ? nil : SharedValue(value)
    }
}
