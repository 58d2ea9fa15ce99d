/// A common segment read and checked by `CommonSegmentReader` but not yet stored: plain values only.
struct CommonSegment {
    var duration: Double
    var places: UInt8
    /// The date's instant (bit pattern) and form, or form `PackedSegment.dateNone` without a date.
    var dateBits: UInt64
    var dateForm: UInt16
    var uri: Span
    /// Its EXT-X-BYTERANGE: the length, and the offset when written (`rangeLength` nil: none).
    var rangeLength: UInt64?
    var rangeOffset: UInt64?
    /// The line of its first tag and of its URI.
    var firstLine: Int
    var uriLine: Int
}
