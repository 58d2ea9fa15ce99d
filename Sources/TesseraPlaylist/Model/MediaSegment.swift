/// One media segment of a media playlist (RFC 8216bis §3, §4.4.4).
///
/// Compact (88 bytes inline; `MediaSegments` stores it as a 72-byte `PackedSegment`), because live
/// EVENT playlists grow to hundreds of thousands of segments: the EXTINF text is rebuilt from the duration and one byte when it is a
/// plain decimal, the program date-time is inline, and the keys, map and bitrate in force live in one
/// box that a whole run of segments shares, together with the tags few segments carry (title,
/// parts, unknown tags); a segment with none of these has no box.
public struct MediaSegment: Hashable, Sendable {
    /// URI as written after variable substitution (not resolved).
    public var uri: String
    /// The EXTINF duration in seconds.
    public var duration: Double {
        didSet { durationChanged(from: oldValue) }
    }
    /// The segment's media sequence number.
    public var mediaSequence: UInt64
    /// The segment's discontinuity sequence number.
    public var discontinuitySequence: UInt64
    /// Its EXT-X-PROGRAM-DATE-TIME, if it has one.
    public var programDateTime: ProgramDateTime?
    /// Its byte range, if any.
    public var byteRange: PlaylistByteRange?
    /// True when an EXT-X-DISCONTINUITY precedes it.
    public var isDiscontinuity: Bool
    /// True when EXT-X-GAP marks it as missing.
    public var isGap: Bool
    /// The decimal places the EXTINF text has, or `SegmentDuration.unpacked` when the text is in `extras`.
    private(set) var durationPlaces: UInt8
    /// The line of the URI.
    public var line: SourceLine
    /// Keys, map, bitrate and the rarer tags, or nil when it has none of them.
    var extras: SharedValue<SegmentExtras>?

    /// Creates a segment; `line` is where its URI was parsed (0 for one built in code).
    public init(uri: String, duration: Double, durationText: String? = nil, title: String? = nil,
                mediaSequence: UInt64, discontinuitySequence: UInt64 = 0, byteRange: PlaylistByteRange? = nil,
                isDiscontinuity: Bool = false, isGap: Bool = false, programDateTime: ProgramDateTime? = nil,
                bitrate: UInt64? = nil, keys: [SegmentKey] = [], map: MediaInitializationSection? = nil,
                parts: [PartialSegment] = [], unknownTags: [UnknownTag] = [], line: SourceLine = SourceLine(0)) {
        let text = durationText ?? DecimalText.format(duration)
        var extras = SegmentExtras(keys: keys, mapBox: map.map(SharedValue.init), bitrate: bitrate, title: title,
                                   parts: parts, unknownTags: unknownTags)
        let places = SegmentDuration.places(text: text, value: duration)
        if places == nil { extras.durationText = text }
        self.init(uri: uri, duration: duration, durationPlaces: places ?? SegmentDuration.unpacked, mediaSequence: mediaSequence,
                  discontinuitySequence: discontinuitySequence, programDateTime: programDateTime, byteRange: byteRange,
                  isDiscontinuity: isDiscontinuity, isGap: isGap, line: line, extras: extras.isEmpty ? nil : SharedValue(extras))
    }

    /// The parser's initializer: `extras` is shared with the segments before when it can be.
    init(uri: String, duration: Double, durationPlaces: UInt8, mediaSequence: UInt64, discontinuitySequence: UInt64,
         programDateTime: ProgramDateTime?, byteRange: PlaylistByteRange?, isDiscontinuity: Bool, isGap: Bool,
         line: SourceLine, extras: SharedValue<SegmentExtras>?) {
        self.uri = uri
        self.duration = duration
        self.durationPlaces = durationPlaces
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.programDateTime = programDateTime
        self.byteRange = byteRange
        self.isDiscontinuity = isDiscontinuity
        self.isGap = isGap
        self.line = line
        self.extras = extras
    }

    /// The EXTINF duration exactly as written.
    public var durationText: String {
        get {
            durationPlaces == SegmentDuration.unpacked ? extras?.value.durationText ?? ""
                : SegmentDuration.text(duration, places: durationPlaces)
        }
        set { keep(text: newValue) }
    }

    /// Whether the EXTINF text has a decimal point (without making the text).
    var durationHasPoint: Bool {
        durationPlaces == SegmentDuration.unpacked ? extras?.value.durationText?.contains(".") ?? false : durationPlaces > 0
    }

    /// Every key in force (one per KEYFORMAT; empty after METHOD=NONE).
    public var keys: [SegmentKey] {
        get { extras?.value.keys ?? [] }
        set { updateExtras { $0.keys = newValue } }
    }

    /// The EXT-X-MAP in force, if any.
    public var map: MediaInitializationSection? {
        get { mapBox?.value }
        set {
            guard newValue != mapBox?.value else { return }
            mapBox = newValue.map(SharedValue.init)
        }
    }

    /// The map, shared by every segment it applies to (one allocation per EXT-X-MAP).
    var mapBox: SharedValue<MediaInitializationSection>? {
        get { extras?.value.mapBox }
        set { updateExtras { $0.mapBox = newValue } }
    }

    /// The EXT-X-BITRATE in force (kbit/s), if any; byte-range segments have none (§4.4.4.8).
    public var bitrate: UInt64? {
        get { extras?.value.bitrate }
        set { updateExtras { $0.bitrate = newValue } }
    }

    /// The EXTINF title, if any.
    public var title: String? {
        get { extras?.value.title }
        set { updateExtras { $0.title = newValue } }
    }

    /// Its partial segments (the EXT-X-PART tags before its EXTINF), in order.
    public var parts: [PartialSegment] {
        get { extras?.value.parts ?? [] }
        set { updateExtras { $0.parts = newValue } }
    }

    /// Unknown tags that stood among its tags, in order.
    public var unknownTags: [UnknownTag] {
        get { extras?.value.unknownTags ?? [] }
        set { updateExtras { $0.unknownTags = newValue } }
    }

    /// The identity-format key in force, if any.
    public var identityKey: SegmentKey? { keys.first { $0.isIdentity } }

    /// The duration changed and its text did not: keep the text apart unless it still packs.
    private mutating func durationChanged(from old: Double) {
        guard durationPlaces != SegmentDuration.unpacked else { return }
        keep(text: SegmentDuration.text(old, places: durationPlaces))
    }

    private mutating func keep(text: String) {
        if let places = SegmentDuration.places(text: text, value: duration) {
            durationPlaces = places
            if extras?.value.durationText != nil { updateExtras { $0.durationText = nil } }
        } else {
            durationPlaces = SegmentDuration.unpacked
            updateExtras { $0.durationText = text }
        }
    }

    /// Changes the extras; a segment whose extras become empty drops its box.
    mutating func updateExtras(_ change: (inout SegmentExtras) -> Void) {
        var value = extras?.value ?? SegmentExtras()
        change(&value)
        extras = value.isEmpty ? nil : SharedValue(value)
    }
}
