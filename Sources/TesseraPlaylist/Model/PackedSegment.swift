/// A segment as `MediaSegments` stores it: plain values only, no string and no reference, so a
/// hundred thousand of them are one flat buffer that is appended, copied and freed without a
/// reference count. What a value cannot hold lives in the collection beside it: the URI's bytes in
/// shared chunks (`uriStart`, `uriCount`), the extras box in a table (`extras`), a date whose text
/// does not pack in another (`dateForm == PackedSegment.dateApart`). `MediaSegments` makes the
/// `MediaSegment` on demand.
struct PackedSegment: BitwiseCopyable, Sendable {
    var duration: Double
    var mediaSequence: UInt64
    var discontinuitySequence: UInt64
    /// The date's instant (its bit pattern), or the index of a date kept apart.
    var dateBits: UInt64 = 0
    var rangeLength: UInt64 = 0
    /// The range's resolved offset.
    var rangeOffset: UInt64 = 0
    /// Where the URI starts in the shared bytes, or its index among the URIs kept apart.
    var uriStart: UInt32 = 0
    /// The URI's length in the shared bytes (0 for an empty URI or one kept apart).
    var uriCount: UInt32 = 0
    /// The one-based line of the URI (0: built in code).
    var line: UInt32
    /// One more than the index of the extras box, or 0 for none.
    var extras: UInt32 = 0
    /// The date's form (`DateTimeForm.raw`, never 0), `dateNone`, or `dateApart`.
    var dateForm: UInt16 = PackedSegment.dateNone
    /// The EXTINF text's places, or `SegmentDuration.unpacked`.
    var durationPlaces: UInt8
    var flags: UInt8 = 0

    static let dateNone: UInt16 = 0
    static let dateApart: UInt16 = .max

    static let discontinuityFlag: UInt8 = 1
    static let gapFlag: UInt8 = 2
    static let rangeFlag: UInt8 = 4
    static let rangeOffsetWrittenFlag: UInt8 = 8
    static let uriApartFlag: UInt8 = 16

    init(duration: Double, durationPlaces: UInt8, mediaSequence: UInt64, discontinuitySequence: UInt64, line: UInt32) {
        self.duration = duration
        self.durationPlaces = durationPlaces
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.line = line
    }

    var isDiscontinuity: Bool {
        get { flags & Self.discontinuityFlag != 0 }
        set { set(Self.discontinuityFlag, newValue) }
    }

    var isGap: Bool {
        get { flags & Self.gapFlag != 0 }
        set { set(Self.gapFlag, newValue) }
    }

    /// Whether the URI is a string kept apart (`uriStart` its index).
    var isURIApart: Bool { flags & Self.uriApartFlag != 0 }

    /// Whether it has a date.
    var hasDate: Bool { dateForm != Self.dateNone }

    var byteRange: PlaylistByteRange? {
        get {
            guard flags & Self.rangeFlag != 0 else { return nil }
            let written = flags & Self.rangeOffsetWrittenFlag != 0
            return PlaylistByteRange(length: rangeLength, offset: written ? rangeOffset : nil, resolvedOffset: rangeOffset)
        }
        set {
            set(Self.rangeFlag, newValue != nil)
            set(Self.rangeOffsetWrittenFlag, newValue?.isOffsetWritten ?? false)
            rangeLength = newValue?.length ?? 0
            rangeOffset = newValue?.resolvedOffset ?? 0
        }
    }

    /// Whether the EXTINF text has a decimal point, for a text that packed (`durationPlaces` not
    /// `SegmentDuration.unpacked`).
    var packedDurationHasPoint: Bool { durationPlaces > 0 }

    private mutating func set(_ flag: UInt8, _ on: Bool) {
        flags = on ? flags | flag : flags & ~flag
    }
}
