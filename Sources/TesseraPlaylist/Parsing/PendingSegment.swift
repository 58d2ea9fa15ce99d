/// Segment tags read since the last URI line, waiting for the URI that closes the segment.
struct PendingSegment {
    var duration: Duration?
    var range: (length: UInt64, offset: UInt64?, line: Int)?
    var isDiscontinuity = false
    var isGap = false
    var programDateTime: ProgramDateTime?
    var parts: [PartialSegment] = []
    var lastPartRange: (uri: String, end: UInt64)?
    var unknownTags: [UnknownTag] = []
    /// True once any per-segment tag was read.
    var hasSegmentTags = false

    /// An EXTINF: its value, and the places of its text when the text is plain, else the text.
    struct Duration {
        var value: Double
        var places: UInt8?
        var text: String?
        var title: String?
    }
}
