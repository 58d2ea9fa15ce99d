import TesseraHTTP
import TesseraPlaylist

/// One muxed track's resources as a streamed movie fetches them (`PackagePlan.streamed`), made
/// one at a time from its playlist with where each starts on the track's EXTINF timeline: each
/// initialization section before the first segment that uses it, each segment that is not a gap
/// (a segment listed twice is two resources), a discontinuity marked where the run changes.
/// The starts never decrease (an EXTINF is unsigned), so the tracks merge by start without a sort.
struct StreamedTrackResources: IteratorProtocol {
    private let stream: StreamIdentity
    private var segments: MediaSegments.Iterator
    private var start = 0.0
    private var lastMap: MediaInitializationSection?
    private var lastRun: UInt64?
    /// The segment whose initialization section came out first.
    private var pending: (start: Double, resource: PlannedResource)?

    /// The resources of `playlist`'s segments, as `stream`.
    init(_ playlist: MediaPlaylist, stream: StreamIdentity) {
        self.stream = stream
        segments = playlist.segments.makeIterator()
    }

    /// The next resource and where it starts.
    mutating func next() -> (start: Double, resource: PlannedResource)? {
        if let pending {
            self.pending = nil
            return pending
        }
        while let segment = segments.next() {
            let segmentStart = start
            start += segment.duration
            var map: PlannedResource?
            if let section = segment.map, section.uri != lastMap?.uri || section.byteRange != lastMap?.byteRange {
                lastMap = section
                map = .initialization(section, stream: stream, mediaSequence: segment.mediaSequence, range: section.byteRange.map(ByteRange.init))
            }
            guard !segment.isGap else {
                if let map { return (segmentStart, map) }
                continue
            }
            let discontinuity = lastRun.map { $0 != segment.discontinuitySequence } ?? false
            lastRun = segment.discontinuitySequence
            let resource = PlannedResource.segment(segment, stream: stream, range: segment.byteRange.map(ByteRange.init), startsDiscontinuity: discontinuity)
            guard let map else { return (segmentStart, resource) }
            pending = (segmentStart, resource)
            return (segmentStart, map)
        }
        return nil
    }
}
