/// The checks of a progressive MP4 (ISO/IEC 14496-12 §8.6–§8.7: a `moov` without `mvex`, its
/// samples listed in each track's sample table, their bytes in `mdat` boxes): every table agrees
/// on the sample count (`stts`, `ctts`, `stsz`), `stsc` starts at chunk 1, ascends, names
/// existing sample descriptions and covers every chunk `stco`/`co64` lists, `stss` names
/// samples that exist in order, and every chunk's bytes lie inside an `mdat` payload.
extension MP4Validator {
    /// One track's chunks: where each starts and how many bytes its samples hold.
    struct ProgressiveChunks {
        var chunks: [(start: UInt64, length: UInt64)] = []
    }

    /// Reads one trak's sample table when the moov is progressive; returns its chunks, or nil
    /// (and findings) when the table does not hold together.
    mutating func progressiveTrack(_ stbl: [(type: MP4BoxType, payload: [UInt8], offset: UInt64)], track: UInt32, at offset: UInt64) -> ProgressiveChunks? {
        func box(_ type: MP4BoxType) -> [UInt8]? { stbl.first { $0.type == type }?.payload }
        func fail(_ message: String) -> ProgressiveChunks? {
            report("mp4-sample-table", .error, at: offset, "Track \(track): \(message)")
            return nil
        }
        guard let stsd = box(MP4BoxType("stsd")), stsd.count >= 8, let stts = box(MP4BoxType("stts")), stts.count >= 8, let stsz = box(MP4BoxType("stsz")), stsz.count >= 12,
              let stsc = box(MP4BoxType("stsc")), stsc.count >= 8, let offsets = box(MP4BoxType("stco")) ?? box(MP4BoxType("co64")), offsets.count >= 8 else {
            return fail("its sample table lacks stsd, stts, stsz, stsc or stco/co64.")
        }
        let descriptions = Int(BigEndian.uint32(stsd, 4))
        let uniform = BigEndian.uint32(stsz, 4)
        let count = Int(BigEndian.uint32(stsz, 8))
        guard uniform != 0 || stsz.count >= 12 + count * 4 else { return fail("stsz lists \(count) sizes that do not fit it.") }
        let timed = (0..<min(Int(BigEndian.uint32(stts, 4)), (stts.count - 8) / 8)).reduce(0) { $0 + Int(BigEndian.uint32(stts, 8 + $1 * 8)) }
        guard timed == count else { return fail("stts times \(timed) samples, stsz sizes \(count).") }
        if let ctts = box(MP4BoxType("ctts")), ctts.count >= 8 {
            let offsetCount = (0..<min(Int(BigEndian.uint32(ctts, 4)), (ctts.count - 8) / 8)).reduce(0) { $0 + Int(BigEndian.uint32(ctts, 8 + $1 * 8)) }
            guard offsetCount == count else { return fail("ctts offsets \(offsetCount) samples, stsz sizes \(count).") }
        }
        if let stss = box(MP4BoxType("stss")), stss.count >= 8 {
            var previous: UInt32 = 0
            for index in 0..<min(Int(BigEndian.uint32(stss, 4)), (stss.count - 8) / 4) {
                let sample = BigEndian.uint32(stss, 8 + index * 4)
                guard sample > previous, sample <= count else { return fail("stss names sample \(sample), out of order or past \(count).") }
                previous = sample
            }
        }
        let wide = box(MP4BoxType("co64")) != nil
        let chunkCount = min(Int(BigEndian.uint32(offsets, 4)), (offsets.count - 8) / (wide ? 8 : 4))
        let runs = min(Int(BigEndian.uint32(stsc, 4)), (stsc.count - 8) / 12)
        guard runs > 0, BigEndian.uint32(stsc, 8) == 1 else { return fail("stsc does not start at chunk 1.") }
        var result = ProgressiveChunks()
        var sample = 0
        for run in 0..<runs {
            let first = Int(BigEndian.uint32(stsc, 8 + run * 12))
            let perChunk = Int(BigEndian.uint32(stsc, 12 + run * 12))
            let description = Int(BigEndian.uint32(stsc, 16 + run * 12))
            let last = run + 1 < runs ? Int(BigEndian.uint32(stsc, 8 + (run + 1) * 12)) - 1 : chunkCount
            guard first >= 1, last >= first, last <= chunkCount, description >= 1, description <= descriptions else {
                return fail("stsc's entry \(run + 1) (chunk \(first), description \(description)) does not fit \(chunkCount) chunks and \(descriptions) descriptions.")
            }
            for chunk in first...last {
                guard sample + perChunk <= count else { return fail("its chunks hold more samples than stsz sizes (\(count)).") }
                let start = wide ? BigEndian.uint64(offsets, 8 + (chunk - 1) * 8) : UInt64(BigEndian.uint32(offsets, 8 + (chunk - 1) * 4))
                // One size for every sample: in closed form (a table may claim 2^32 samples of it).
                let length = uniform != 0 ? UInt64(perChunk) * UInt64(uniform)
                    : (sample..<(sample + perChunk)).reduce(UInt64(0)) { $0 + UInt64(BigEndian.uint32(stsz, 12 + $1 * 4)) }
                result.chunks.append((start, length))
                sample += perChunk
            }
        }
        guard sample == count else { return fail("its chunks hold \(sample) samples, stsz sizes \(count).") }
        return result
    }

    /// Every chunk of every progressive track inside an `mdat` payload.
    mutating func checkProgressiveChunks(mediaData: [(start: UInt64, end: UInt64)]) {
        for (track, chunks) in progressiveChunks.sorted(by: { $0.key < $1.key }) {
            for (index, chunk) in chunks.chunks.enumerated() {
                let (end, overflow) = chunk.start.addingReportingOverflow(chunk.length)
                guard !overflow, mediaData.contains(where: { chunk.start >= $0.start && end <= $0.end }) else {
                    report("mp4-chunk-outside-mdat", .error, at: chunk.start,
                           "Track \(track)'s chunk \(index + 1) (\(chunk.length) bytes at \(chunk.start)) lies outside every mdat payload.")
                    break
                }
            }
        }
    }
}
