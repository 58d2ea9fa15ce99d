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
    /// The date part (`YYYY-MM-DD`) of the last date read the common way, and its day since 1970:
    /// a live playlist's dates share it for a whole day.
    var lastDay: (word: UInt64, tail: UInt16, days: Int)?

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
            if let seconds = utcMillisecondDate(text) {
                dateBits = seconds.bitPattern
                dateForm = DateTimeForm.utcMilliseconds.raw
            } else {
                guard let seconds = ISO8601DateTime.secondsSince1970(bytes, text),
                      let form = DateTimeForm.of(UnsafeBufferPointer(start: bytes.base.baseAddress! + text.start, count: text.count),
                                                 seconds: seconds) else { return nil }
                dateBits = seconds.bitPattern
                dateForm = form.raw
            }
            guard let next = line(from: end + 1) else { return nil }
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

    /// The instant of a date written `YYYY-MM-DDThh:mm:ss.sssZ` with a second under 60 — the text
    /// `DateTimeForm.utcMilliseconds` rebuilds — computed as `ISO8601DateTime` computes it, to the
    /// bit; nil for any other text. The day is the last date's when the date part is the same.
    mutating func utcMillisecondDate(_ text: Span) -> Double? {
        guard text.count == 24, text.end + 8 <= count else { return nil }
        let at = raw + text.start
        func byte(_ offset: Int) -> Int { Int(at.load(fromByteOffset: offset, as: UInt8.self)) }
        func digits(_ offset: Int, _ width: Int) -> Int? {
            var value = 0
            for position in offset..<offset + width {
                let digit = byte(position) &- 0x30
                guard digit >= 0, digit < 10 else { return nil }
                value = value &* 10 &+ digit
            }
            return value
        }
        guard byte(4) == 0x2D, byte(7) == 0x2D, byte(10) == 0x54, byte(13) == 0x3A, byte(16) == 0x3A, byte(19) == 0x2E,
              byte(23) == 0x5A, let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              let d1 = digits(20, 1), let d2 = digits(21, 1), let d3 = digits(22, 1),
              hour < 24, minute < 60, second < 60 else { return nil }
        let word = at.loadUnaligned(as: UInt64.self), tail = at.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        let days: Int
        if let lastDay, lastDay.word == word, lastDay.tail == tail {
            days = lastDay.days
        } else {
            guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
                  (1...12).contains(month), (1...ISO8601DateTime.daysIn(month, year)).contains(day) else { return nil }
            days = ISO8601DateTime.daysFromCivil(year: year, month: month, day: day)
            lastDay = (word, tail, days)
        }
        // The fraction as `ISO8601DateTime` adds it up, digit by digit, for the same bits.
        var fraction = 0.0
        var scale = 0.1
        fraction += Double(d1) * scale
        scale /= 10
        fraction += Double(d2) * scale
        scale /= 10
        fraction += Double(d3) * scale
        return Double(days * 86400 + hour * 3600 + minute * 60 + second) + fraction
    }
}
