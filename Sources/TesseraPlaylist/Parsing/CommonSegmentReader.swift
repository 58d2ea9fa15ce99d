/// Reads the lines of a common segment — an optional EXT-X-PROGRAM-DATE-TIME with a date that
/// packs, an EXTINF without a title whose text packs, and a URI without a variable reference,
/// each line plain ASCII within the line bound and ended by a LF — and checks them without
/// storing anything (RFC 8216bis §4.1, §4.4.4.1, §4.4.4.6). Any other lines give nil, and the
/// parser's general path reads them, so the two paths agree on everything this one accepts.
struct CommonSegmentReader {
    let bytes: Bytes
    let raw: UnsafeRawPointer
    let count: Int
    let maximumLineBytes: Int
    /// The last EXTINF number read (its bytes as a little-endian word and its length) and its
    /// value: packagers write the same duration on segment after segment.
    private var lastNumber: (word: UInt64, length: Int, value: Double, places: UInt8) = (0, 0, 0, 0)

    init(bytes: Bytes, count: Int, maximumLineBytes: Int) {
        self.bytes = bytes
        raw = UnsafeRawPointer(bytes.base.baseAddress!)
        self.count = count
        self.maximumLineBytes = maximumLineBytes
    }

    /// The common segment whose first line starts at `index` and is line `number`, or nil.
    mutating func segment(from index: Int, number: Int) -> CommonSegment? {
        guard var end = line(from: index) else { return nil }
        var start = index
        var uriLine = number + 1
        var dateBits: UInt64 = 0
        var dateForm = PackedSegment.dateNone
        if bytes.hasPrefix(Span(start: start, end: end), "#EXT-X-PROGRAM-DATE-TIME:") {
            let text = Span(start: start + 25, end: end)
            guard let seconds = ISO8601DateTime.secondsSince1970(bytes, text),
                  let form = DateTimeForm.of(UnsafeBufferPointer(start: bytes.base.baseAddress! + text.start, count: text.count), seconds: seconds),
                  let next = line(from: end + 1) else { return nil }
            dateBits = seconds.bitPattern
            dateForm = form.raw
            uriLine += 1
            start = end + 1
            end = next
        }
        guard bytes.hasPrefix(Span(start: start, end: end), "#EXTINF:"),
              let (duration, places) = duration(Span(start: start + 8, end: bytes[end - 1] == 0x2C ? end - 1 : end)),
              let uriEnd = line(from: end + 1) else { return nil }
        let uri = Span(start: end + 1, end: uriEnd)
        guard !uri.isEmpty, bytes[uri.start] != 0x23, !bytes.containsVariableReference(uri) else { return nil }
        return CommonSegment(duration: duration, places: places, dateBits: dateBits, dateForm: dateForm, uri: uri,
                             firstLine: number, uriLine: uriLine)
    }

    /// The EXTINF number in `span` when its text packs (`SegmentDuration`): the last one's value
    /// when the bytes are the same, else read.
    private mutating func duration(_ span: Span) -> (Double, UInt8)? {
        let length = span.count
        guard length > 0, length <= 8, span.start + 8 <= count else {
            guard let read = DecimalNumbers.duration(bytes, span), let places = read.places else { return nil }
            return (read.value, places)
        }
        let word = raw.loadUnaligned(fromByteOffset: span.start, as: UInt64.self).littleEndian & (UInt64.max >> UInt64(64 - 8 * length))
        if length == lastNumber.length, word == lastNumber.word { return (lastNumber.value, lastNumber.places) }
        guard let read = DecimalNumbers.duration(bytes, span), let places = read.places else { return nil }
        lastNumber = (word, length, read.value, places)
        return (read.value, places)
    }

    /// The end (its LF) of the plain line from `start` within the line bound, or nil.
    @inline(__always)
    private func line(from start: Int) -> Int? {
        guard let end = PlaylistText.plainLineEnd(raw, from: start, count: count), end - start <= maximumLineBytes else { return nil }
        return end
    }
}
