#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// The writing half of a streamed movie (docs/DOWNLOAD.md): the movie's package folder's
/// `transform` for the muxed tracks. It takes their initialization sections and segments in the
/// streamed plan's order (`PackagePlan.streamed(muxing:)`), each segment read by its source's
/// reader as it arrives and its units put on the movie's tracks (`MovieTracks`), and makes the
/// segment's samples the next bytes of the body file — one chunk per track, in the order the
/// tracks first appear in it — with a payload for the segment's checkpoint record
/// (`StreamedPayload`) from which `restore` rebuilds it exactly after a kill. One owner.
final class MovieStreamer {
    /// A run of one track's samples in the body, of one sample description: the track, its
    /// samples, where it starts, the bytes before its samples (a fragmented file's `moof` and
    /// `mdat` header, written at the end; none in a progressive one) and its samples' bytes.
    struct Chunk: Equatable {
        let track: Int
        let samples: Range<Int>
        let offset: UInt64
        let headerBytes: Int
        let byteCount: UInt64
    }

    private let sources: [MovieMux.Source]
    /// Each muxed stream's source.
    private let streams: [StreamIdentity: Int]
    /// The media sequence number of each source's first segment.
    private let firstSequences: [UInt64]
    /// The body file, in the staging folder.
    let body: SafeRelativePath
    private var tracks: MovieTracks
    private var readers: [Int: ElementaryStreamReader] = [:]
    private var inits: [MovieMux.Region: FragmentedMP4Init] = [:]
    /// The media of the last unit of each kind of each source (a payload names it only when it changes).
    private var lastMedia: [MovieMux.TrackKey: MP4Track.Media] = [:]
    /// Samples so far, by track.
    private var counts: [Int] = []
    /// The body's chunks so far.
    private(set) var chunks: [Chunk] = []
    /// The body's length.
    private(set) var length: UInt64 = 0
    /// Whether the body is movie fragments (each chunk after room for its `moof`).
    let fragmented: Bool

    /// A streamer of `sources`, whose streams are `streams` (one each) and whose first segments
    /// have media sequence numbers `firstSequences`, writing to `body`.
    init(sources: [MovieMux.Source], streams: [StreamIdentity], firstSequences: [UInt64], body: SafeRelativePath, fragmented: Bool = false) {
        precondition(sources.count == streams.count && sources.count == firstSequences.count, "a stream and a first sequence number per source")
        self.sources = sources
        self.streams = Dictionary(uniqueKeysWithValues: streams.enumerated().map { ($1, $0) })
        self.firstSequences = firstSequences
        self.body = body
        self.fragmented = fragmented
        tracks = MovieTracks(sources: sources, locatesSamples: false)   // its samples are in the body
    }

    /// What `fetched` becomes: nothing for a resource of another stream (written as it is); for an
    /// initialization section no bytes (it is parsed and kept in the payload); for a segment its
    /// samples.
    /// - Throws: `malformed-media`, `unsupported` (a reader's refusal); `destination-unwritable`.
    func transform(_ fetched: FetchedResource) throws(HLSError) -> TransformedResource? {
        let identity = fetched.resource.identity
        guard let source = streams[identity.stream] else { return nil }
        var bytes: [UInt8] = []
        if case .memory(let body, _) = fetched.body { bytes = body } else { try fetched.body.forEachChunk { chunk throws(HLSError) in bytes += chunk } }
        let position = try segmentPosition(identity.mediaSequence, of: source)
        let segment = sources[source].segments[position]
        var payload = StreamedPayload()
        switch identity.kind {
        case .initialization:
            try parseMap(bytes, of: segment)
            payload.map = Data(bytes)
            return TransformedResource(path: body, pieces: [], payload: try payload.encoded())
        case .segment:
            var reader = readers[source] ?? ElementaryStreamReader(kinds: sources[source].kinds)
            // Fragment samples lie whole in the segment: copied out of it once, into the body.
            reader.keepsBytes = segment.map == nil
            let units = try MovieMux.units(of: segment, bytes: bytes, reader: &reader, inits: &inits)
            readers[source] = reader
            payload.keep(units, changes: units.map { unit in
                let key = MovieMux.TrackKey(source: source, kind: unit.kind)
                defer { lastMedia[key] = unit.media }
                return lastMedia[key] != unit.media
            })
            payload.reader = reader
            let made = try take(units, source: source, segment: position, from: bytes)
            return TransformedResource(path: body, pieces: made, payload: try payload.encoded())
        default:
            throw HLSError(.unsupported, "A streamed movie takes initialization sections and segments, not \(fetched.resource.label).")
        }
    }

    /// Rebuilds the streamer from the payloads of the body's records a resume kept, in order:
    /// the same tracks, chunks, readers and sections as when they were written.
    /// - Throws: `destination-unwritable` when a payload does not read; as `transform`.
    func restore(_ records: [ResourceFileRecord]) throws(HLSError) {
        for record in records where record.path == body.value {
            guard let text = record.mux, let identity = record.identity, let source = streams[identity.stream] else {
                throw HLSError(.destinationUnwritable, "A record of the streamed movie's body has no payload.")
            }
            let payload = try StreamedPayload.decoded(text)
            let position = try segmentPosition(identity.mediaSequence, of: source)
            let segment = sources[source].segments[position]
            if let map = payload.map { try parseMap([UInt8](map), of: segment) }
            guard payload.units != nil else { continue }
            var last = [ElementaryStreamReader.Kind: MP4Track.Media]()
            for kind in [ElementaryStreamReader.Kind.video, .audio] { last[kind] = lastMedia[MovieMux.TrackKey(source: source, kind: kind)] }
            let units = try payload.keptUnits(last: &last)
            for (kind, media) in last { lastMedia[MovieMux.TrackKey(source: source, kind: kind)] = media }
            readers[source] = payload.reader
            _ = try take(units, source: source, segment: position, from: nil)
            guard length == record.end else {
                throw HLSError(.destinationUnwritable, "A streamed movie's checkpoint payloads do not add up to its body (\(length) bytes, recorded \(record.end)).")
            }
        }
    }

    /// The tracks and the body's chunks once every resource is in.
    /// - Throws: as `MovieTracks.finish`.
    func finish() throws(HLSError) -> (tracks: MovieTimingPass.Result, chunks: [Chunk]) {
        (try tracks.finish(sources: sources), chunks)
    }

    /// Puts `units` of segment `position` of `source` on the tracks and their samples in chunks;
    /// with the segment's `bytes`, returns the samples grouped by track as pieces where they lie
    /// (a unit's own bytes, else those at its offset in the segment; adjacent ones joined).
    private func take(_ units: [ElementaryStreamReader.Unit], source: Int, segment position: Int, from bytes: [UInt8]?) throws(HLSError) -> [ArraySlice<UInt8>] {
        let segment = sources[source].segments[position]
        let owners = try tracks.append(units, source: source, segment: position, run: segment.run, at: segment.path)
        var made: [ArraySlice<UInt8>] = []
        var joined: Range<Int>?   // a run of adjacent samples of the segment not yet in `made`
        func flush() {
            if let run = joined, let bytes { made.append(bytes[run]) }
            joined = nil
        }
        var seen: [Int] = []
        for track in owners where !seen.contains(track) { seen.append(track) }
        for track in seen {
            while counts.count <= track { counts.append(0) }
            let mine = zip(units, owners).filter { $0.1 == track }.map(\.0)
            // A chunk has one sample description: cut where the media changes.
            var start = 0
            while start < mine.count {
                var end = start + 1
                while end < mine.count, mine[end].media == mine[start].media { end += 1 }
                let run = mine[start..<end]
                let size = run.reduce(UInt64(0)) { $0 + UInt64($1.unit.size) }
                let header = fragmented ? FragmentedMP4.headerSize(samples: run.count, payload: size) : 0
                if header > 0, bytes != nil {
                    flush()
                    made.append([UInt8](repeating: 0, count: header)[...])   // the moof, written once the timeline is whole
                }
                for unit in run where bytes != nil {
                    // A demuxed unit brings its bytes; a fragment's sample lies in the segment.
                    guard let offset = unit.offset, unit.unit.data.isEmpty else {
                        flush()
                        made.append(unit.unit.data[...])
                        continue
                    }
                    guard offset >= 0, offset + unit.unit.size <= bytes?.count ?? 0 else {
                        throw HLSError(.malformedMedia, "A sample of \(segment.path) lies outside it.")
                    }
                    if let joinedRun = joined, joinedRun.upperBound == offset {
                        joined = joinedRun.lowerBound..<(offset + unit.unit.size)
                    } else {
                        flush()
                        joined = offset..<(offset + unit.unit.size)
                    }
                }
                chunks.append(Chunk(track: track, samples: counts[track]..<(counts[track] + run.count), offset: length, headerBytes: header, byteCount: size))
                counts[track] += run.count
                length += UInt64(header) + size
                start = end
            }
        }
        flush()
        return made
    }

    /// The position in `source` of its segment of media sequence `sequence`.
    private func segmentPosition(_ sequence: UInt64, of source: Int) throws(HLSError) -> Int {
        let segments = sources[source].segments
        guard sequence >= firstSequences[source], sequence - firstSequences[source] < UInt64(segments.count) else {
            throw HLSError(.unsupported, "Media sequence \(sequence) is not a segment of the streamed movie's source \(source).")
        }
        return Int(sequence - firstSequences[source])
    }

    /// Keeps the initialization section `bytes` that `segment` (its first user) names.
    private func parseMap(_ bytes: [UInt8], of segment: MovieMux.Segment) throws(HLSError) {
        guard let region = segment.map else {
            throw HLSError(.malformedMedia, "An initialization section came for \(segment.path), which names none.")
        }
        inits[region] = try MovieMux.media(at: region.path) { () throws(MediaError) in try FragmentedMP4Init(bytes) }
    }
}
