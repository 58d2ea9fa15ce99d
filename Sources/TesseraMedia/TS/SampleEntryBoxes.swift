/// The boxes inside a copied MP4 sample entry (ISO/IEC 14496-12 §8.5.2, §12.1.3, §12.2.3; the
/// QuickTime sound entry versions 1 and 2), and the `esds` descriptors of ISO/IEC 14496-1
/// §7.2.6 — what a transport stream needs of a fragmented MP4 source's codec configuration.
struct SampleEntryBoxes {
    /// A read position in a configuration record, each read checked against its end.
    struct Cursor {
        private let bytes: [UInt8]
        private(set) var offset: Int

        init(_ bytes: [UInt8], at offset: Int) {
            self.bytes = bytes
            self.offset = offset
        }

        /// The next byte.
        /// - Throws: `malformed-boxes` past the end.
        mutating func byte() throws(MediaError) -> UInt8 {
            guard offset < bytes.count else { throw MediaError(.malformedBoxes, "A codec configuration record ends early (byte \(offset)).") }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// The next `count` bytes.
        /// - Throws: `malformed-boxes` past the end.
        mutating func bytes(_ count: Int) throws(MediaError) -> [UInt8] {
            guard count >= 0, count <= bytes.count - offset else {
                throw MediaError(.malformedBoxes, "A codec configuration record ends early (\(count) bytes at byte \(offset)).")
            }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        /// A 16-bit length and that many bytes (a parameter set of `avcC` or `hvcC`).
        mutating func lengthPrefixed() throws(MediaError) -> [UInt8] {
            let length = Int(try byte()) << 8 | Int(try byte())
            return try bytes(length)
        }

        /// An MPEG-4 descriptor's tag and size (the size in one to four 7-bit bytes).
        mutating func descriptor() throws(MediaError) -> (tag: UInt8, size: Int) {
            let tag = try byte()
            var size = 0
            for _ in 0..<4 {
                let next = try byte()
                size = size << 7 | Int(next & 0x7F)
                if next & 0x80 == 0 { break }
            }
            return (tag, size)
        }
    }

    private let entry: CopiedSampleEntry

    init(_ entry: CopiedSampleEntry) { self.entry = entry }

    /// The payload of the entry's first child box of type `type` (the boxes after the entry's
    /// fixed fields, read by `MP4BoxHeader`).
    /// - Throws: `malformed-boxes` when the entry has none.
    func child(_ type: StaticString) throws(MediaError) -> [UInt8] {
        let bytes = entry.bytes
        var start = entry.isVideo ? 86 : 36
        if !entry.isVideo, bytes.count >= 18 {
            // A QuickTime sound entry of version 1 or 2 has 16 or 36 more bytes of fields.
            switch BigEndian.uint16(bytes, 16) {
            case 1: start += 16
            case 2: start += 36
            default: break
            }
        }
        let wanted = MP4BoxType(type)
        guard start <= bytes.count,
              let box = MP4BoxHeader.boxes(in: bytes, start..<bytes.count, sizeToEnd: false).boxes.first(where: { $0.type == wanted }) else {
            throw MediaError(.malformedBoxes, "The sample entry has no \(type) box.")
        }
        return Array(bytes[Int(box.payloadOffset)..<Int(box.end)])
    }

    /// The `esds`'s object type indication and decoder specific info (for AAC, the
    /// AudioSpecificConfig; empty when absent).
    /// - Throws: `malformed-boxes` when the descriptors do not read.
    func elementaryStreamDescriptor() throws(MediaError) -> (objectType: UInt8, specific: [UInt8]) {
        var cursor = Cursor(try child("esds"), at: 4)   // after the full box's version and flags
        guard try cursor.descriptor().tag == 0x03 else { throw MediaError(.malformedBoxes, "An esds without its ES_Descriptor.") }
        _ = try cursor.bytes(2)
        let flags = try cursor.byte()
        if flags & 0x80 != 0 { _ = try cursor.bytes(2) }
        if flags & 0x40 != 0 { _ = try cursor.bytes(Int(try cursor.byte())) }
        if flags & 0x20 != 0 { _ = try cursor.bytes(2) }
        let config = try cursor.descriptor()
        guard config.tag == 0x04, config.size >= 13 else { throw MediaError(.malformedBoxes, "An esds without its DecoderConfigDescriptor.") }
        let objectType = try cursor.byte()
        _ = try cursor.bytes(12)
        guard config.size > 13 else { return (objectType, []) }
        let specific = try cursor.descriptor()
        guard specific.tag == 0x05 else { return (objectType, []) }
        return (objectType, try cursor.bytes(specific.size))
    }
}
