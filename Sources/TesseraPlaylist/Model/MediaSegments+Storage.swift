/// How `MediaSegments` packs a segment into plain values and makes it again, and the access the
/// parser and the passes over every segment use to read the stored values in place.
extension MediaSegments {
    /// Where a URI was kept.
    struct StoredURI {
        var start: UInt32
        var count: UInt32
        var isApart: Bool
    }

    // MARK: Making a segment

    /// The segment `record` stores.
    func segment(_ record: PackedSegment) -> MediaSegment {
        var made = segmentWithoutURI(record)
        made.uri = withURI(of: record) { String(decoding: $0, as: UTF8.self) }
        return made
    }

    /// The segment `record` stores with an empty URI: its fields, for a pass that reads the URI's
    /// bytes apart (or not at all).
    func segmentWithoutURI(_ record: PackedSegment) -> MediaSegment {
        MediaSegment(uri: "", duration: record.duration, durationPlaces: record.durationPlaces, mediaSequence: record.mediaSequence,
                     discontinuitySequence: record.discontinuitySequence, programDateTime: programDateTime(of: record),
                     byteRange: record.byteRange, isDiscontinuity: record.isDiscontinuity, isGap: record.isGap,
                     line: SourceLine(Int(record.line)), extras: extras(of: record))
    }

    /// The extras box of `record`, if it has one.
    @inline(__always)
    func extras(of record: PackedSegment) -> SharedValue<SegmentExtras>? {
        record.extras == 0 ? nil : boxes[Int(record.extras) - 1]
    }

    /// The date of `record`, if it has one.
    @inline(__always)
    func programDateTime(of record: PackedSegment) -> ProgramDateTime? {
        switch record.dateForm {
        case PackedSegment.dateNone: nil
        case PackedSegment.dateApart: apartDates[Int(record.dateBits)]
        default: ProgramDateTime(seconds: Double(bitPattern: record.dateBits), form: DateTimeForm(raw: record.dateForm))
        }
    }

    /// The partial segments of `record`, or nil when it has none (without looking at a segment
    /// without extras).
    @inline(__always)
    func parts(of record: PackedSegment) -> [PartialSegment]? {
        guard record.extras != 0, case let parts = boxes[Int(record.extras) - 1].value.parts, !parts.isEmpty else { return nil }
        return parts
    }

    /// Whether the EXTINF text of `record` has a decimal point (without making the text).
    func durationHasPoint(of record: PackedSegment) -> Bool {
        guard record.durationPlaces == SegmentDuration.unpacked else { return record.packedDurationHasPoint }
        return extras(of: record)?.value.durationText?.contains(".") ?? false
    }

    /// The EXTINF text of `record` as written.
    func durationText(of record: PackedSegment) -> String {
        record.durationPlaces == SegmentDuration.unpacked ? extras(of: record)?.value.durationText ?? ""
            : SegmentDuration.text(record.duration, places: record.durationPlaces)
    }

    /// Runs `body` on the UTF-8 bytes of the URI of the segment at `index`, without making a string.
    func withURI<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withURI(of: packed[index], body)
    }

    /// Runs `body` on the UTF-8 bytes of the URI `record` stores.
    func withURI<Result>(of record: PackedSegment, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if record.isURIApart {
            var uri = apartURIs[Int(record.uriStart)]
            return try uri.withUTF8(body)
        }
        guard record.uriCount > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let offset = Int(record.uriStart) & (Self.chunkBytes - 1)
        return try uriChunks[Int(record.uriStart) / Self.chunkBytes].withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[offset..<offset + Int(record.uriCount)]))
        }
    }

    /// Whether the segment at `index` equals the one at `otherIndex` of `other`, URIs compared as bytes.
    func segmentEquals(at index: Int, _ other: MediaSegments, at otherIndex: Int) -> Bool {
        let lhs = packed[index], rhs = other.packed[otherIndex]
        guard withURI(of: lhs, { left in other.withURI(of: rhs) { left.elementsEqual($0) } }) else { return false }
        return segmentWithoutURI(lhs) == other.segmentWithoutURI(rhs)
    }

    /// Bytes held in the URI chunks (live and unused), for tests of compaction.
    var storedURIBytes: Int { storedBytes }

    // MARK: Keeping values, for the parser

    /// Keeps a URI's UTF-8 bytes (already validated) in the shared chunks, or apart when they do not fit.
    mutating func keep(uri: UnsafeBufferPointer<UInt8>) -> StoredURI {
        if uri.isEmpty { return StoredURI(start: 0, count: 0, isApart: false) }
        if let start = store(uri) { return StoredURI(start: start, count: UInt32(uri.count), isApart: false) }
        apartURIs.append(String(decoding: uri, as: UTF8.self))
        return StoredURI(start: UInt32(apartURIs.count - 1), count: 0, isApart: true)
    }

    /// The index (plus one) of `box` in the table: the last one again when it is the same box, as
    /// a run of segments shares one.
    @inline(__always)
    mutating func keep(extras box: SharedValue<SegmentExtras>?) -> UInt32 {
        guard let box else { return 0 }
        if let last = boxes.last, last === box { return UInt32(boxes.count) }
        boxes.append(box)
        return UInt32(boxes.count)
    }

    /// Stores `date` in `record`: its instant and form inline, or apart when its text does not pack.
    @inline(__always)
    mutating func keep(date: ProgramDateTime?, in record: inout PackedSegment) {
        guard let date else { return }
        if let form = date.form {
            record.dateForm = form.raw
            record.dateBits = date.storedSeconds.bitPattern
        } else {
            apartDates.append(date)
            record.dateForm = PackedSegment.dateApart
            record.dateBits = UInt64(apartDates.count - 1)
        }
    }

    /// Stores a URI kept by `keep(uri:)` in `record`.
    @inline(__always)
    static func place(_ uri: StoredURI, in record: inout PackedSegment) {
        record.uriStart = uri.start
        record.uriCount = uri.count
        if uri.isApart { record.flags |= PackedSegment.uriApartFlag }
    }

    /// Appends a segment the parser packed.
    mutating func append(parsed record: PackedSegment) {
        packed.append(record)
    }

    // MARK: Packing

    /// `segment` as stored values; what `old` (the record it replaces) stores is kept when
    /// `segment` has it unchanged (its URI's bytes, its extras box).
    mutating func pack(_ segment: MediaSegment, replacing old: PackedSegment? = nil) -> PackedSegment {
        var record = PackedSegment(duration: segment.duration, durationPlaces: segment.durationPlaces,
                                   mediaSequence: segment.mediaSequence, discontinuitySequence: segment.discontinuitySequence,
                                   line: UInt32(clamping: segment.line.number))
        record.isDiscontinuity = segment.isDiscontinuity
        record.isGap = segment.isGap
        record.byteRange = segment.byteRange
        keep(date: segment.programDateTime, in: &record)
        var uri = segment.uri
        if let old, uri.withUTF8({ bytes in withURI(of: old) { bytes.elementsEqual($0) } }) {
            record.uriStart = old.uriStart
            record.uriCount = old.uriCount
            record.flags |= old.flags & PackedSegment.uriApartFlag
        } else {
            if let old { unusedBytes += Int(old.uriCount) }
            Self.place(uri.withUTF8 { keep(uri: $0) }, in: &record)
        }
        if let old, let box = segment.extras, extras(of: old) === box {
            record.extras = old.extras
        } else {
            record.extras = keep(extras: segment.extras)
        }
        return record
    }

    /// `record` of `base` as stored here: its URI, box and date kept again in this collection.
    mutating func transfer(_ record: PackedSegment, from base: MediaSegments) -> PackedSegment {
        var moved = record
        moved.flags &= ~PackedSegment.uriApartFlag
        Self.place(base.withURI(of: record) { keep(uri: $0) }, in: &moved)
        moved.extras = keep(extras: base.extras(of: record))
        if record.dateForm == PackedSegment.dateApart {
            moved.dateForm = PackedSegment.dateNone
            keep(date: base.programDateTime(of: record), in: &moved)
        }
        return moved
    }

    /// Counts the URI bytes of a record no segment refers to any more.
    mutating func release(_ record: PackedSegment) {
        unusedBytes += Int(record.uriCount)
    }

    /// Stores `uri` in the last chunk, or a new one when it does not fit; returns its start, or nil
    /// when it is longer than a chunk or the chunks are full. A chunk is made of zeros and filled
    /// by copying into it (growing an array a URI at a time cost more than the copies); it starts
    /// at 1 KiB and doubles up to `chunkBytes`, so a playlist of a few segments holds a few URIs'
    /// worth of memory, not a whole chunk.
    private mutating func store(_ uri: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard uri.count <= Self.chunkBytes, let source = uri.baseAddress else { return nil }
        if uriChunks.isEmpty || chunkFill + uri.count > Self.chunkBytes {
            guard uriChunks.count < Int(UInt32.max) / Self.chunkBytes + 1 else { return nil }
            uriChunks.append([UInt8](repeating: 0, count: Swift.max(1024, uri.count)))
            chunkFill = 0
        }
        let last = uriChunks.count - 1
        let size = uriChunks[last].count
        if chunkFill + uri.count > size {
            let grown = Swift.min(Self.chunkBytes, Swift.max(2 * size, chunkFill + uri.count))
            uriChunks[last].append(contentsOf: repeatElement(0, count: grown - size))
        }
        let fill = chunkFill
        uriChunks[last].withUnsafeMutableBufferPointer { chunk in
            (chunk.baseAddress! + fill).update(from: source, count: uri.count)
        }
        chunkFill = fill + uri.count
        storedBytes += uri.count
        return UInt32(last * Self.chunkBytes + fill)
    }

    /// Stores everything again without what no segment refers to, once that is most of the URI
    /// bytes or the tables hold more entries than there are segments.
    mutating func compactIfWasteful() {
        let wastesBytes = unusedBytes > 4096 && unusedBytes * 2 > storedBytes
        // Each segment needs at most one entry in each table, so compacted they hold at most three a segment.
        let wastesEntries = boxes.count + apartURIs.count + apartDates.count > 3 * packed.count + 64
        guard wastesBytes || wastesEntries else { return }
        let old = self
        removeAll(keepingCapacity: true)
        for record in old.packed { packed.append(transfer(record, from: old)) }
    }
}
