/// Prepares fMP4 resources for one output file (media.md §2.10, F11): the top-level boxes of each
/// resource must parse exactly to its end (after decryption this also catches a wrong key), an
/// initialization section must start with `ftyp`, a media segment with a box a segment may start
/// with, and a segment's own `styp` and `sidx` boxes are dropped — a per-segment index inside a
/// joined file misleads players about durations.
public enum MP4SegmentAssembly {
    /// Boxes dropped from media segments.
    static let dropped: Set<MP4BoxType> = [.styp, .sidx]

    /// The bytes of an initialization section, unchanged, once checked.
    /// - Throws: `malformed-boxes`.
    public static func initialization(_ bytes: [UInt8]) throws(MediaError) -> [UInt8] {
        _ = try initializationBoxes(MP4MemorySource(bytes))
        return bytes
    }

    /// The bytes of a media segment without its `styp` and `sidx` boxes, once checked.
    /// - Throws: `malformed-boxes`.
    public static func segment(_ bytes: [UInt8]) throws(MediaError) -> [UInt8] {
        let kept = try segmentBoxes(MP4MemorySource(bytes))
        guard kept.count < (try topLevelBoxes(MP4MemorySource(bytes))).count else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for box in kept { out += bytes[Int(box.offset)..<Int(box.end)] }
        return out
    }

    /// The top-level boxes of an initialization section, once checked: they fill the source
    /// exactly, the first is `ftyp`, and one is a `moov`.
    /// - Throws: `malformed-boxes`.
    public static func initializationBoxes(_ source: some MP4ByteSource) throws(MediaError) -> [MP4BoxHeader] {
        let boxes = try topLevelBoxes(source)
        guard boxes.first?.type == .ftyp, boxes.contains(where: { $0.type == .moov }) else {
            throw MediaError(.malformedBoxes, "An initialization section must start with ftyp and hold a moov; it starts with \(boxes.first.map { "\($0.type)" } ?? "nothing").")
        }
        return boxes
    }

    /// The top-level boxes of a media segment a joined file keeps — all but `styp` and `sidx` —
    /// once checked: the boxes fill the source exactly, the first is one a segment may start
    /// with, and one is a `moof`.
    /// - Throws: `malformed-boxes`.
    public static func segmentBoxes(_ source: some MP4ByteSource) throws(MediaError) -> [MP4BoxHeader] {
        let boxes = try topLevelBoxes(source)
        guard let first = boxes.first, MP4BoxType.segmentStarts.contains(first.type) else {
            throw MediaError(.malformedBoxes, "A media segment must start with styp, sidx, moof, emsg or prft; it starts with \(boxes.first.map { "\($0.type)" } ?? "nothing").")
        }
        guard boxes.contains(where: { $0.type == .moof }) else {
            throw MediaError(.malformedBoxes, "A media segment holds no moof box.")
        }
        return boxes.filter { !dropped.contains($0.type) }
    }

    /// The top-level boxes of `source`, which must end exactly at its end.
    /// - Throws: `malformed-boxes` naming the first box that does not fit.
    static func topLevelBoxes(_ source: some MP4ByteSource) throws(MediaError) -> [MP4BoxHeader] {
        var boxes: [MP4BoxHeader] = []
        var offset: UInt64 = 0
        while offset < source.size {
            do {
                let box = try MP4BoxHeader.read(source, at: offset, limit: source.size, sizeToEnd: true)
                boxes.append(box)
                offset = box.end
            } catch {
                switch error {
                case .truncated(let remaining):
                    throw MediaError(.malformedBoxes, "\(remaining) stray bytes after the last box at offset \(offset).")
                case .truncatedExtension:
                    throw MediaError(.malformedBoxes, "A 64-bit box header at offset \(offset) is cut off.")
                case .sizeBelowHeader(let size), .pastLimit(let size, _):
                    throw MediaError(.malformedBoxes, "The box at offset \(offset) claims \(size) bytes; \(source.size - offset) remain.")
                case .sizeToEndInside:
                    throw MediaError(.malformedBoxes, "The box at offset \(offset) has size 0 where it is not allowed.")
                }
            }
        }
        return boxes
    }
}
