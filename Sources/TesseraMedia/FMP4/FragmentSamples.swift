/// The samples of a fragmented MP4 media segment (ISO/IEC 14496-12 §8.8): for each `moof`, each
/// `traf`'s `tfhd` (defaults, the base offset: the `moof` or, without
/// `default-base-is-moof`, the end of the previous traf's data), its `tfdt` and its `trun`s
/// (durations, sizes, flags, composition offsets — version 0 unsigned, version 1 signed), with
/// the `trex` defaults of the initialization section. Each sample: its track, decode time in the
/// track's timescale, duration, composition offset, whether it is a sync sample, and where its
/// bytes are in the segment — checked to lie inside it.
public enum FragmentSamples {
    /// The most samples one segment may list (a 10 s segment at 60 fps and 48 kHz AAC lists
    /// about 1,100): a trun of default-sized (or empty) samples costs no bytes per sample, so the
    /// count is bounded here rather than by the box.
    public static let maximumSamples = 1 << 20

    /// One sample.
    public struct Sample: Sendable, Equatable {
        public let track: UInt32
        public let decodeTime: UInt64
        public let duration: UInt32
        public let compositionOffset: Int32
        public let isSync: Bool
        public let range: Range<Int>
    }

    /// The samples of `segment`, whose tracks `initialization` declares.
    /// - Throws: `malformed-boxes` for boxes that do not parse, a traf without tfhd or tfdt, a
    ///   track the initialization section does not declare, an absolute `base_data_offset`,
    ///   sample bytes outside the segment, or more than `maximumSamples` samples.
    public static func samples(of segment: [UInt8], initialization: FragmentedMP4Init) throws(MediaError) -> [Sample] {
        var samples: [Sample] = []
        for moof in try FragmentedMP4Init.children(segment, 0..<segment.count, sizeToEnd: true) where moof.type == .moof {
            var previousEnd: Int?
            for traf in try FragmentedMP4Init.children(segment, FragmentedMP4Init.payload(moof)) where traf.type == .traf {
                previousEnd = try read(traf, in: segment, moof: Int(moof.offset), previousEnd: previousEnd, initialization: initialization, into: &samples)
            }
        }
        return samples
    }

    /// Reads one traf's samples; returns where its data ends.
    private static func read(_ traf: MP4BoxHeader, in bytes: [UInt8], moof: Int, previousEnd: Int?, initialization: FragmentedMP4Init,
                             into samples: inout [Sample]) throws(MediaError) -> Int {
        let boxes = try FragmentedMP4Init.children(bytes, FragmentedMP4Init.payload(traf))
        guard let tfhd = boxes.first(where: { $0.type == .tfhd }), tfhd.payloadSize >= 8 else { throw fail("A traf has no tfhd.") }
        var at = Int(tfhd.payloadOffset)
        let flags = BigEndian.uint32(bytes, at) & 0x00FF_FFFF
        let id = BigEndian.uint32(bytes, at + 4)
        guard let track = initialization.tracks.first(where: { $0.id == id }) else { throw fail("A traf names track \(id), which the initialization section does not declare.") }
        guard flags & 0x1 == 0 else { throw fail("Track \(id)'s tfhd has an absolute base_data_offset; its samples cannot be found in the segment alone.") }
        at += 8
        var fields = [UInt32]()
        for flag: UInt32 in [0x2, 0x8, 0x10, 0x20] where flags & flag != 0 {
            guard at + 4 <= Int(tfhd.end) else { throw fail("Track \(id)'s tfhd is shorter than its flags say.") }
            fields.append(flag == 0x2 ? 0 : BigEndian.uint32(bytes, at))
            at += 4
        }
        var next = fields.makeIterator()
        if flags & 0x2 != 0 { _ = next.next() }   // sample_description_index: one entry per track here
        let defaultDuration = flags & 0x8 != 0 ? next.next()! : track.defaultDuration
        let defaultSize = flags & 0x10 != 0 ? next.next()! : track.defaultSize
        let defaultFlags = flags & 0x20 != 0 ? next.next()! : track.defaultFlags
        guard let tfdt = boxes.first(where: { $0.type == .tfdt }), tfdt.payloadSize >= 8 else { throw fail("Track \(id)'s traf has no tfdt.") }
        let t = Int(tfdt.payloadOffset)
        var decodeTime = bytes[t] == 1 && tfdt.payloadSize >= 12 ? BigEndian.uint64(bytes, t + 4) : UInt64(BigEndian.uint32(bytes, t + 4))
        let base = flags & 0x2_0000 != 0 ? moof : (previousEnd ?? moof)
        var dataEnd = base
        for run in boxes where run.type == .trun {
            var p = Int(run.payloadOffset)
            let end = Int(run.end)
            guard p + 8 <= end else { throw fail("Track \(id)'s trun is cut short.") }
            let version = bytes[p]
            let runFlags = BigEndian.uint32(bytes, p) & 0x00FF_FFFF
            let count = Int(BigEndian.uint32(bytes, p + 4))
            p += 8
            var offset = dataEnd
            if runFlags & 0x1 != 0 {
                guard p + 4 <= end else { throw fail("Track \(id)'s trun is cut short.") }
                offset = base + Int(Int32(bitPattern: BigEndian.uint32(bytes, p)))
                p += 4
            }
            var firstFlags: UInt32?
            if runFlags & 0x4 != 0 {
                guard p + 4 <= end else { throw fail("Track \(id)'s trun is cut short.") }
                firstFlags = BigEndian.uint32(bytes, p)
                p += 4
            }
            let perSample = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count * 4
            guard count >= 0, count <= (end - p) / max(perSample, 1) || perSample == 0 else {
                throw fail("Track \(id)'s trun lists \(count) samples that do not fit it.")
            }
            guard samples.count + count <= maximumSamples else {
                throw fail("The segment lists more than \(maximumSamples) samples.")
            }
            for index in 0..<count {
                var duration = defaultDuration, size = defaultSize, sampleFlags = index == 0 ? firstFlags ?? defaultFlags : defaultFlags
                var composition: Int32 = 0
                if runFlags & 0x100 != 0 { duration = BigEndian.uint32(bytes, p); p += 4 }
                if runFlags & 0x200 != 0 { size = BigEndian.uint32(bytes, p); p += 4 }
                if runFlags & 0x400 != 0 { sampleFlags = BigEndian.uint32(bytes, p); p += 4 }
                if runFlags & 0x800 != 0 {
                    let raw = BigEndian.uint32(bytes, p)
                    composition = version == 0 ? Int32(clamping: raw) : Int32(bitPattern: raw)
                    p += 4
                }
                guard offset >= 0, Int(size) <= bytes.count - offset else {
                    throw fail("Track \(id)'s sample \(index) lies outside the segment (\(size) bytes at \(offset)).")
                }
                samples.append(Sample(track: id, decodeTime: decodeTime, duration: duration, compositionOffset: composition,
                                      isSync: sampleFlags & 0x1_0000 == 0, range: offset..<(offset + Int(size))))
                offset += Int(size)
                decodeTime &+= UInt64(duration)
            }
            dataEnd = offset
        }
        return dataEnd
    }

    private static func fail(_ message: String) -> MediaError { MediaError(.malformedBoxes, message) }
}
