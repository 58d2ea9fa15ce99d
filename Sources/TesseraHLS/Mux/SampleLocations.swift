import TesseraMedia
import TesseraSupport

/// Where each sample of the tracks copied out of fragmented MP4 lies, as the mux's first pass
/// found it — its segment in the track's source and its offset in that segment's bytes — so the
/// second pass reads the bytes straight from the staged files into the file's buffer, a run of
/// adjacent samples in one read, instead of reading and parsing every segment again. A track
/// demuxed from MPEG-TS has none (its samples are made from PES packets). 8 bytes a sample.
struct SampleLocations {
    private struct Location {
        let segment: UInt32
        let offset: UInt32
    }

    /// By track index; nil for a track one of whose samples has no location.
    private var tracks: [[Location]?] = []

    /// Notes where the next sample of `track` lies: at `offset` in the bytes of its source's
    /// segment `segment`, or nowhere (nil).
    mutating func append(track: Int, segment: Int, offset: Int?) {
        while tracks.count <= track { tracks.append([]) }
        guard let offset, let segment = UInt32(exactly: segment), let offset = UInt32(exactly: offset) else {
            tracks[track] = nil
            return
        }
        tracks[track]?.append(Location(segment: segment, offset: offset))
    }

    /// Whether every sample of track `index` has its place.
    func locates(_ index: Int) -> Bool { index < tracks.count && tracks[index] != nil }

    /// Appends to `buffer` the bytes of the first of `samples` of `track` (track `index`, read
    /// from `source`'s segments) and of those after it that lie right behind it in the same
    /// segment, while they fit in `room` bytes; returns how many it appended (at least one).
    /// - Throws: `destination-unwritable` when a staged file does not hold them.
    func copy(_ samples: Range<Int>, of track: MP4Track, index: Int, source: MovieMux.Source, into buffer: inout [UInt8], room: Int) throws(HLSError) -> Int {
        guard index < tracks.count, let places = tracks[index] else { preconditionFailure("a located track's samples are copied") }
        let first = places[samples.lowerBound]
        var (end, next, bytes) = (samples.lowerBound, Int(first.offset), 0)
        while end < samples.upperBound {
            let (place, size) = (places[end], Int(track.samples[end].size))
            guard place.segment == first.segment, Int(place.offset) == next, end == samples.lowerBound || bytes + size <= room else { break }
            (end, next, bytes) = (end + 1, next + size, bytes + size)
        }
        let segment = source.segments[Int(first.segment)]
        do throws(SupportError) {
            try FileDescriptorIO.readRegularFile(segment.path, offset: (segment.range?.lowerBound ?? 0) + UInt64(first.offset), count: bytes, appendingTo: &buffer)
        } catch {
            throw HLSError(destination: error)
        }
        return end - samples.lowerBound
    }
}
