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
                let value = BigEndian.uint32(segment, offset)
                if let last, value <= last, last < .max {
                    BigEndian.write(last + 1, into: &segment, at: offset)
                    self.last = last + 1
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

        /// Records the numbers of the fragments of a segment already written, read box by box
        /// from `source` (only its `moof` boxes are read, each at most
        /// `MP4Validator.maximumParsedBoxBytes`), without changing it.
        public mutating func observe(_ source: some MP4ByteSource) {
            var offset: UInt64 = 0
            while offset < source.size {
                // A broken box ends the walk: the assembler checked these bytes when it wrote them.
                guard let box = try? MP4BoxHeader.read(source, at: offset, limit: source.size, sizeToEnd: true) else { return }
                if box.type == .moof, box.size <= UInt64(MP4Validator.maximumParsedBoxBytes) {
                    observe(source.read(at: box.offset, count: Int(box.size)))
                }
                offset = box.end
            }
        }

        /// Offsets of the 32-bit `sequence_number` of every `moof`'s `mfhd` in `bytes` (the
        /// full box's version and flags come first), whatever the boxes' header sizes.
        static func sequenceOffsets(_ bytes: [UInt8]) -> [Int] {
            // Malformed top-level boxes: nothing to renumber (the assembler refused them already).
            let top = MP4BoxHeader.boxes(in: bytes, 0..<bytes.count, sizeToEnd: true).boxes
            var offsets: [Int] = []
            for moof in top where moof.type == .moof {
                let children = MP4BoxHeader.boxes(in: bytes, Int(moof.payloadOffset)..<Int(moof.end), sizeToEnd: false).boxes
                for mfhd in children where mfhd.type == .mfhd && mfhd.payloadSize >= 8 {
                    offsets.append(Int(mfhd.payloadOffset) + 4)
                }
            }
            return offsets
        }
    }
}
