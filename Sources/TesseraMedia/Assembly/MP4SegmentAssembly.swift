/// Prepares fMP4 resources for one output file (media.md §2.10, F11): the top-level boxes of each
/// resource must parse exactly to its end (after decryption this also catches a wrong key), an
/// initialization section must start with `ftyp`, a media segment with a box a segment may start
/// with, and a segment's own `styp` and `sidx` boxes are dropped — a per-segment index inside a
/// joined file misleads players about durations.
public enum MP4SegmentAssembly {
    /// Boxes a media segment may start with.
    static let segmentStarts: Set<String> = ["styp", "sidx", "moof", "emsg", "prft"]
    /// Boxes dropped from media segments.
    static let dropped: Set<String> = ["styp", "sidx"]

    /// The bytes of an initialization section, unchanged, once checked.
    /// - Throws: `malformed-boxes`.
    public static func initialization(_ bytes: [UInt8]) throws(MediaError) -> [UInt8] {
        let boxes = try topLevelBoxes(bytes)
        guard boxes.first?.type == "ftyp", boxes.contains(where: { $0.type == "moov" }) else {
            throw MediaError(.malformedBoxes, "An initialization section must start with ftyp and hold a moov; it starts with \(boxes.first?.type ?? "nothing").")
        }
        return bytes
    }

    /// The bytes of a media segment without its `styp` and `sidx` boxes, once checked.
    /// - Throws: `malformed-boxes`.
    public static func segment(_ bytes: [UInt8]) throws(MediaError) -> [UInt8] {
        let boxes = try topLevelBoxes(bytes)
        guard let first = boxes.first, segmentStarts.contains(first.type) else {
            throw MediaError(.malformedBoxes, "A media segment must start with styp, sidx, moof, emsg or prft; it starts with \(boxes.first?.type ?? "nothing").")
        }
        guard boxes.contains(where: { $0.type == "moof" }) else {
            throw MediaError(.malformedBoxes, "A media segment holds no moof box.")
        }
        guard boxes.contains(where: { dropped.contains($0.type) }) else { return bytes }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        for box in boxes where !dropped.contains(box.type) { kept += bytes[box.range] }
        return kept
    }

    /// The top-level boxes of `bytes`, which must end exactly at its end.
    static func topLevelBoxes(_ bytes: [UInt8]) throws(MediaError) -> [(type: String, range: Range<Int>)] {
        var boxes: [(type: String, range: Range<Int>)] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else {
                throw MediaError(.malformedBoxes, "\(bytes.count - offset) stray bytes after the last box at offset \(offset).")
            }
            var size = UInt64(MP4Validator.u32(bytes, offset))
            var header = 8
            if size == 1 {
                guard bytes.count - offset >= 16 else {
                    throw MediaError(.malformedBoxes, "A 64-bit box header at offset \(offset) is cut off.")
                }
                size = MP4Validator.u64(bytes, offset + 8)
                header = 16
            } else if size == 0 {
                size = UInt64(bytes.count - offset)
            }
            guard size >= UInt64(header), size <= UInt64(bytes.count - offset) else {
                throw MediaError(.malformedBoxes, "The box at offset \(offset) claims \(size) bytes; \(bytes.count - offset) remain.")
            }
            let type = MP4Validator.fourCC(bytes, offset + 4)
            boxes.append((type, offset..<offset + Int(size)))
            offset += Int(size)
        }
        return boxes
    }
}

extension MP4SegmentAssembly {
    /// Keeps `mfhd` sequence numbers strictly increasing across a joined file (media.md §2.10):
    /// each `moof`'s number that does not exceed the previous one is rewritten in place to the
    /// previous plus one; numbers that already increase are kept. Pass the bytes of each
    /// segment in output order; `observe` replays segments already written after a restart.
    public struct FragmentNumbering: Sendable {
        /// The last sequence number written, if any.
        public private(set) var last: UInt32?

        /// A numbering before the first fragment.
        public init() {}

        /// Renumbers the fragments of `segment` (top-level boxes) in place; returns how many changed.
        @discardableResult
        public mutating func renumber(_ segment: inout [UInt8]) -> Int {
            var changed = 0
            for offset in Self.sequenceOffsets(segment) {
                let value = MP4Validator.u32(segment, offset)
                if let last, value <= last, last < .max {
                    let next = last + 1
                    segment[offset] = UInt8(next >> 24)
                    segment[offset + 1] = UInt8(next >> 16 & 0xFF)
                    segment[offset + 2] = UInt8(next >> 8 & 0xFF)
                    segment[offset + 3] = UInt8(next & 0xFF)
                    self.last = next
                    changed += 1
                } else {
                    self.last = value
                }
            }
            return changed
        }

        /// Records the numbers of a segment already written, without changing it.
        public mutating func observe(_ segment: [UInt8]) {
            var copy = segment
            renumber(&copy)
        }

        /// Offsets of the 32-bit sequence number of every `moof`'s `mfhd` in `bytes`.
        static func sequenceOffsets(_ bytes: [UInt8]) -> [Int] {
            guard let boxes = try? MP4SegmentAssembly.topLevelBoxes(bytes) else { return [] }   // malformed: nothing to renumber
            var offsets: [Int] = []
            for box in boxes where box.type == "moof" {
                var child = box.range.lowerBound + 8
                while child + 16 <= box.range.upperBound {
                    let size = Int(MP4Validator.u32(bytes, child))
                    guard size >= 8, child + size <= box.range.upperBound else { break }
                    if MP4Validator.fourCC(bytes, child + 4) == "mfhd" { offsets.append(child + 12) }
                    child += size
                }
            }
            return offsets
        }
    }
}
