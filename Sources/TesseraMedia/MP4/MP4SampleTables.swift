/// The sample table boxes of one track (ISO/IEC 14496-12 §8.5–§8.7): `stsd`, `stts` (decode
/// durations, run-length), `ctts` (composition offsets, when any is not 0; version 1 when one
/// is negative), `stss` (when not every sample is a sync sample), `stsc`, `stsz`, and `stco`
/// or `co64`.
enum MP4SampleTables {
    /// A fragmented track's tables: its sample descriptions, and no sample.
    static func writeEmpty(_ track: MP4Track, into stbl: inout MP4BoxWriter) {
        writeDescriptions(track, into: &stbl)
        stbl.box("stts", version: 0) { $0.u32(0) }
        stbl.box("stsc", version: 0) { $0.u32(0) }
        stbl.box("stsz", version: 0) { $0.zeros(8) }
        stbl.box("stco", version: 0) { $0.u32(0) }
    }

    private static func writeDescriptions(_ track: MP4Track, into stbl: inout MP4BoxWriter) {
        stbl.box("stsd", version: 0) { box in
            box.u32(UInt32(track.descriptions.count))
            for media in track.descriptions { MP4SampleEntry.write(media, into: &box) }
        }
    }

    static func write(_ track: MP4Track, chunks: [ProgressiveMP4.Chunk], offsets: [UInt64], wide: Bool, into stbl: inout MP4BoxWriter) {
        let samples = track.samples
        writeDescriptions(track, into: &stbl)
        var durations: [(count: UInt32, value: UInt32)] = []
        for index in samples.indices {
            let duration = UInt32(clamping: track.duration(of: index))
            if durations.last?.value == duration { durations[durations.count - 1].count += 1 } else { durations.append((1, duration)) }
        }
        stbl.box("stts", version: 0) { box in
            box.u32(UInt32(durations.count))
            for run in durations { box.u32(run.count); box.u32(run.value) }
        }
        if samples.contains(where: { $0.compositionOffset != 0 }) {
            var runs: [(count: UInt32, value: Int32)] = []
            for sample in samples {
                if runs.last?.value == sample.compositionOffset { runs[runs.count - 1].count += 1 } else { runs.append((1, sample.compositionOffset)) }
            }
            stbl.box("ctts", version: samples.contains { $0.compositionOffset < 0 } ? 1 : 0) { box in
                box.u32(UInt32(runs.count))
                for run in runs { box.u32(run.count); box.u32(UInt32(bitPattern: run.value)) }
            }
        }
        if !samples.allSatisfy(\.isSync) {
            let sync = samples.indices.filter { samples[$0].isSync }
            stbl.box("stss", version: 0) { box in
                box.u32(UInt32(sync.count))
                for index in sync { box.u32(UInt32(index + 1)) }
            }
        }
        var perChunk: [(first: UInt32, count: UInt32, description: UInt32)] = []
        for (index, chunk) in chunks.enumerated() {
            let count = UInt32(chunk.samples.count), description = UInt32(samples[chunk.samples.lowerBound].description) + 1
            if perChunk.last.map({ $0.count != count || $0.description != description }) ?? true {
                perChunk.append((UInt32(index + 1), count, description))
            }
        }
        stbl.box("stsc", version: 0) { box in
            box.u32(UInt32(perChunk.count))
            for run in perChunk { box.u32(run.first); box.u32(run.count); box.u32(run.description) }
        }
        stbl.box("stsz", version: 0) { box in
            box.u32(0)
            box.u32(UInt32(samples.count))
            for sample in samples { box.u32(sample.size) }
        }
        stbl.box(wide ? "co64" : "stco", version: 0) { box in
            box.u32(UInt32(offsets.count))
            for offset in offsets { if wide { box.u64(offset) } else { box.u32(UInt32(offset)) } }
        }
    }
}
