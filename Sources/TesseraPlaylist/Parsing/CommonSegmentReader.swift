/// Reads the lines of a common segment — an optional EXT-X-PROGRAM-DATE-TIME with a date that
/// packs, an EXTINF without a title whose text packs, an optional EXT-X-BYTERANGE after it, and a
/// URI without a brace, each line plain ASCII within the line bound and ended by a LF — and
/// checks them without storing anything (RFC 8216bis §4.1, §4.4.4.1, §4.4.4.2, §4.4.4.6). Any
/// other lines give nil, and the parser's general path reads them, so the two paths agree on
/// everything this one accepts.
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
        var start = index
        var uriLine = number + 1
        var dateBits: UInt64 = 0
        var dateForm = PackedSegment.dateNone
        if !startsWith(Self.extinf, at: start) {
            guard startsWith(Self.dateTag, at: start), byte(at: start + 24) == 0x3A,   // ":"
                  let end = line(from: start, known: 25) else { return nil }
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
            uriLine += 1
            start = end + 1
            guard startsWith(Self.extinf, at: start) else { return nil }
        }
        guard var end = line(from: start, known: 8),
              let (duration, places) = duration(Span(start: start + 8, end: bytes[end - 1] == 0x2C ? end - 1 : end)) else { return nil }
        var rangeLength: UInt64?, rangeOffset: UInt64?
        if startsWith(Self.byteRangeTag.0, at: end + 1), startsWith(Self.byteRangeTag.1, at: end + 9), byte(at: end + 1 + 16) == 0x3A {
            let rangeStart = end + 1
            guard let rangeEnd = line(from: rangeStart, known: 17),
                  let (length, offset) = DecimalNumbers.byteRange(bytes, Span(start: rangeStart + 17, end: rangeEnd)) else { return nil }
            rangeLength = length
            rangeOffset = offset
            uriLine += 1
            end = rangeEnd
        }
        guard let uriEnd = uriLineEnd(from: end + 1) else { return nil }
        let uri = Span(start: end + 1, end: uriEnd)
        guard !uri.isEmpty, bytes[uri.start] != 0x23 else { return nil }
        return CommonSegment(duration: duration, places: places, dateBits: dateBits, dateForm: dateForm, uri: uri,
                             rangeLength: rangeLength, rangeOffset: rangeOffset, firstLine: number, uriLine: uriLine)
    }

    /// `#EXTINF:` as a little-endian word.
    private static var extinf: UInt64 { 0x3A46_4E49_5458_4523 }
    /// The first 16 bytes of `#EXT-X-BYTERANGE:` as two little-endian words (the colon follows).
    private static var byteRangeTag: (UInt64, UInt64) { (0x422D_582D_5458_4523, 0x4547_4E41_5245_5459) }
    /// The first 24 bytes of `#EXT-X-PROGRAM-DATE-TIME:` as three little-endian words (the colon follows).
    private static var dateTag: (UInt64, UInt64, UInt64) { (0x502D_582D_5458_4523, 0x442D_4D41_5247_4F52, 0x454D_4954_2D45_5441) }

    /// Whether the 8 bytes at `index` are `word`.
    @inline(__always)
    private func startsWith(_ word: UInt64, at index: Int) -> Bool {
        index + 8 <= count && raw.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian == word
    }

    /// Whether the 24 bytes at `index` are `words`.
    @inline(__always)
    private func startsWith(_ words: (UInt64, UInt64, UInt64), at index: Int) -> Bool {
        startsWith(words.0, at: index) && startsWith(words.1, at: index + 8) && startsWith(words.2, at: index + 16)
    }

    @inline(__always)
    private func byte(at index: Int) -> UInt8 { index < count ? raw.load(fromByteOffset: index, as: UInt8.self) : 0 }

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

    /// The end (its LF) of the plain line from `start` within the line bound, or nil; its first
    /// `known` bytes are plain already (a tag name that was matched).
    @inline(__always)
    private func line(from start: Int, known: Int) -> Int? {
        guard let end = PlaylistText.plainLineEnd(raw, from: start + known, count: count), end - start <= maximumLineBytes else { return nil }
        return end
    }

    /// The end (its LF) of the plain URI line from `start` within the line bound, or nil — also
    /// when the line has a `{`, which may open a variable reference (the general path reads those).
    /// As `PlaylistText.plainLineEnd`, a word at a time, with the braces found in the same words.
    @inline(__always)
    private func uriLineEnd(from start: Int) -> Int? {
        var index = start
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let notLineFeed = word ^ 0x0A0A_0A0A_0A0A_0A0A, notBrace = word ^ 0x7B7B_7B7B_7B7B_7B7B
            // The lowest set bit of each marks the first such byte exactly (bits above it may not).
            let lineFeeds = (notLineFeed &- 0x0101_0101_0101_0101) & ~notLineFeed & 0x8080_8080_8080_8080
            let braces = (notBrace &- 0x0101_0101_0101_0101) & ~notBrace & 0x8080_8080_8080_8080
            if lineFeeds == 0 {
                guard braces == 0, PlaylistText.isPlainASCII(word) else { return nil }
                index += 8
                continue
            }
            let before = lineFeeds.trailingZeroBitCount >> 3
            let kept: UInt64 = (1 << UInt64(before * 8)) &- 1   // the bytes before the LF (before ≤ 7)
            guard braces & kept == 0, PlaylistText.isPlainASCII(word & kept | 0x2020_2020_2020_2020 & ~kept),
                  index + before - start <= maximumLineBytes else { return nil }
            return index + before
        }
        return nil
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
