/// A segment as `MediaSegments` stores it: the segment itself, with a URI longer than a small
/// string (15 UTF-8 bytes) moved out into the collection's shared URI bytes, so a playlist of a
/// hundred thousand segments holds one buffer of URIs instead of a hundred thousand strings.
struct PackedSegment: Sendable {
    /// The segment; its `uri` is empty while the URI is in the shared bytes.
    var segment: MediaSegment
    /// Where its URI starts in the shared bytes.
    var uriStart: UInt32
    /// The length of its URI in the shared bytes, or 0 when `segment.uri` holds it.
    var uriCount: UInt32

    /// A segment that keeps its own URI.
    init(keeping segment: MediaSegment) {
        self.segment = segment
        uriStart = 0
        uriCount = 0
    }

    /// A segment whose URI is `count` bytes of the shared bytes from `start`.
    init(_ segment: MediaSegment, uriStart: UInt32, uriCount: UInt32) {
        self.segment = segment
        self.uriStart = uriStart
        self.uriCount = uriCount
    }

    /// Whether its URI is in the shared bytes.
    var isURIShared: Bool { uriCount != 0 }
}
