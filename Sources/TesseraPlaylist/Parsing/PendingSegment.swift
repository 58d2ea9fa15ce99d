/// Segment tags read since the last URI line, waiting for the URI that closes the segment.
struct PendingSegment {
    var duration: (value: Double, text: String, title: String?)?
    var range: (length: UInt64, offset: UInt64?, line: Int)?
    var isDiscontinuity = false
    var isGap = false
    var programDateTime: ProgramDateTime?
    var parts: [PartialSegment] = []
    var lastPartRange: (uri: String, end: UInt64)?
    var unknownTags: [UnknownTag] = []
    /// True once any per-segment tag was read.
    var hasSegmentTags = false
}
