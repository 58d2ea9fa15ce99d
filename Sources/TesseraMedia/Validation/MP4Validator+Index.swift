/// `sidx` checks (ISO/IEC 14496-12 §8.16.3, media.md §2.7): each segment index is parsed when
/// met; once the whole file's top-level boxes and fragment durations are known, every
/// reference must span whole top-level boxes inside the file — a media reference starting at a
/// `moof` (or `styp`), an index reference at a `sidx` — and a media reference's
/// `subsegment_duration` must match the durations of its track's fragments inside it.
extension MP4Validator {
    /// One parsed `sidx`.
    struct SegmentIndex {
        var offset: UInt64
        var trackID: UInt32
        var timescale: UInt32
        var references: [(isIndex: Bool, start: UInt64, size: UInt64, duration: UInt64)]
    }

    /// The most top-level boxes remembered for the index checks (beyond, they are skipped).
    static let maximumIndexedBoxes = 1 << 20

    /// Parses the `sidx` `box` (payload `payload`); references are anchored at the first byte
    /// after the box plus `first_offset`.
    mutating func sidx(_ payload: [UInt8], box: Box) {
        guard payload.count >= 12 else {
            report("mp4-sidx-malformed", .error, at: box.offset, "The sidx box is too short for its header.")
            return
        }
        let version = payload[0]
        let trackID = BigEndian.uint32(payload, 4)
        let timescale = BigEndian.uint32(payload, 8)
        let fixed = version == 0 ? 12 + 8 + 4 : 12 + 16 + 4
        guard payload.count >= fixed else {
            report("mp4-sidx-malformed", .error, at: box.offset, "The sidx box is too short for its header.")
            return
        }
        let firstOffset = version == 0 ? UInt64(BigEndian.uint32(payload, 16)) : BigEndian.uint64(payload, 20)
        let count = Int(UInt16(payload[fixed - 2]) << 8 | UInt16(payload[fixed - 1]))
        guard payload.count >= fixed + count * 12 else {
            report("mp4-sidx-malformed", .error, at: box.offset, "The sidx lists \(count) references that do not fit the box.")
            return
        }
        if timescale == 0 {
            report("mp4-sidx-malformed", .error, at: box.offset, "The sidx has a timescale of 0.")
        }
        if sawInit, tracks[trackID] == nil {
            report("mp4-sidx-track", .error, at: box.offset, "The sidx indexes track \(trackID), which the init does not declare.")
        }
        let (anchor, overflow) = (box.offset + box.size).addingReportingOverflow(firstOffset)
        guard !overflow else {
            report("mp4-sidx-range", .error, at: box.offset, "The sidx first_offset \(firstOffset) points past any file.")
            return
        }
        var index = SegmentIndex(offset: box.offset, trackID: trackID, timescale: timescale, references: [])
        var start = anchor
        for reference in 0..<count {
            let at = fixed + reference * 12
            let word = BigEndian.uint32(payload, at)
            let size = UInt64(word & 0x7FFF_FFFF)
            index.references.append((word & 0x8000_0000 != 0, start, size, UInt64(BigEndian.uint32(payload, at + 4))))
            let (next, past) = start.addingReportingOverflow(size)
            guard !past else {
                report("mp4-sidx-range", .error, at: box.offset, "The sidx references run past any file.")
                return
            }
            start = next
        }
        segmentIndexes.append(index)
    }

    /// Remembers a top-level box for the index checks.
    mutating func rememberTopLevel(_ box: Box) {
        guard topLevelBoxes.count < Self.maximumIndexedBoxes else { return }
        topLevelBoxes[box.offset] = (box.type, box.offset + box.size)
    }

    /// Checks every parsed `sidx` against the file's boxes and fragment durations.
    mutating func checkIndexes(fileSize: UInt64) {
        guard topLevelBoxes.count < Self.maximumIndexedBoxes else { return }
        let ends = Set(topLevelBoxes.values.map(\.end))
        for index in segmentIndexes {
            for reference in index.references {
                let end = reference.start + reference.size
                guard end <= fileSize else {
                    report("mp4-sidx-range", .error, at: index.offset,
                           "A sidx reference spans bytes \(reference.start)–\(end), past the end of the file (\(fileSize)).")
                    continue
                }
                let target = topLevelBoxes[reference.start]?.type
                let expected: Set<MP4BoxType> = reference.isIndex ? [.sidx] : [.moof, .styp, .emsg, .prft]
                guard let target, expected.contains(target), ends.contains(end) else {
                    report("mp4-sidx-target", .error, at: index.offset,
                           "A sidx \(reference.isIndex ? "index" : "media") reference spans bytes \(reference.start)–\(end), which is not a run of whole boxes starting at \(reference.isIndex ? "a sidx" : "a moof or styp") (found \(target.map(String.init(describing:)) ?? "no box start")).")
                    continue
                }
                guard !reference.isIndex, index.timescale > 0, let timescale = tracks[index.trackID]?.timescale, timescale > 0 else { continue }
                var ticks: UInt64 = 0
                var found = false
                for (moof, durations) in fragmentDurations where moof >= reference.start && moof < end {
                    if let duration = durations[index.trackID] {
                        ticks = ticks.addingReportingOverflow(duration).overflow ? UInt64.max : ticks + duration
                        found = true
                    }
                }
                guard found else { continue }
                let indexed = Double(reference.duration) / Double(index.timescale)
                let actual = Double(ticks) / Double(timescale)
                let tolerance = 1 / Double(index.timescale) + 1 / Double(timescale)
                if abs(indexed - actual) > tolerance {
                    report("mp4-sidx-duration", .warning, at: index.offset,
                           "A sidx reference says \(indexed) s for track \(index.trackID), but its fragments last \(actual) s.")
                }
            }
        }
    }
}
