import TesseraMedia
import TesseraSupport

extension MovieMux {
    /// Keeps the holes of `segments`' EXT-X-GAP segments that joining their runs would close:
    /// those before a run's first media (at a discontinuity, or the presentation's start). A
    /// hole inside a run stays by its media's own timestamps.
    static func holdGaps(of segments: [Segment], in timeline: inout PresentationTimeline) {
        var pending = 0.0
        var lastRun: Int?
        for segment in segments {
            if segment.isGap {
                pending += segment.duration
                continue
            }
            if segment.run != lastRun, pending > 0 { timeline.hold(Int64((pending * 90_000).rounded()), before: segment.run) }
            pending = 0
            lastRun = segment.run
        }
    }

    /// The largest segment read whole (a byte range says its own size).
    static let maximumSegmentBytes = 1 << 30

    /// The bytes of `segment`.
    /// - Throws: `destination-unwritable` when the staged file cannot be read.
    static func read(_ segment: Segment) throws(HLSError) -> [UInt8] {
        do throws(SupportError) {
            if let range = segment.range {
                return try FileDescriptorIO.readRegularFile(segment.path, offset: range.lowerBound, count: Int(range.count))
            }
            return try FileDescriptorIO.readRegularFile(segment.path, limit: maximumSegmentBytes)
        } catch {
            throw HLSError(destination: error)
        }
    }

    /// The access units of `segment` — its `bytes` when at hand, else its file's — through
    /// `reader` (its initialization section read once into `inits`).
    static func units(of segment: Segment, bytes given: [UInt8]? = nil, reader: inout ElementaryStreamReader,
                      inits: inout [Region: FragmentedMP4Init]) throws(HLSError) -> [ElementaryStreamReader.Unit] {
        let bytes: [UInt8]
        if let given { bytes = given } else { bytes = try read(segment) }
        guard let map = segment.map else {
            return try media(at: segment.path) { () throws(MediaError) in try reader.read(segment: bytes) }
        }
        if inits[map] == nil {
            let initBytes = try read(Segment(path: map.path, range: map.range, run: 0))
            inits[map] = try media(at: map.path) { () throws(MediaError) in try FragmentedMP4Init(initBytes) }
        }
        let initialization = inits[map]!
        return try media(at: segment.path) { () throws(MediaError) in try reader.read(fragment: bytes, initialization: initialization) }
    }

    /// Runs a reader step, its `MediaError` as `malformed-media` naming `what` (`unsupported` for
    /// parameters that change).
    static func media<T>(at what: String, _ body: () throws(MediaError) -> T) throws(HLSError) -> T {
        do { return try body() } catch {
            throw HLSError([.malformedElementaryStream, .malformedTransportStream, .malformedBoxes].contains(error.code) ? .malformedMedia : .unsupported,
                           "\(what): \(error.message)", cause: error)
        }
    }
}
