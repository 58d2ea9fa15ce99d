/// How a segment keeps its EXTINF text without a string: when the text is a plain decimal — `0`
/// or digits without a leading zero, optionally `.` and at least one digit, at most 15
/// significant digits, what nearly every packager writes — the parser's value is exactly
/// `mantissa / 10^places`, so the number of places (one byte) is enough to rebuild the text digit
/// for digit from the value. Any other text (a leading zero, more digits, a value set apart from
/// its text) does not pack; the segment keeps it beside its other rare fields.
enum SegmentDuration {
    /// The places byte of a text that did not pack.
    static let unpacked: UInt8 = .max

    /// The places of `text` when it is plain (the parser's rule, `DecimalNumbers.duration`) and
    /// reads back to exactly `value`.
    static func places(text: String, value: Double) -> UInt8? {
        var text = text
        return text.withUTF8 { utf8 in
            guard let read = DecimalNumbers.duration(Bytes(base: utf8), Span(start: 0, end: utf8.count)),
                  let places = read.places, read.value.bitPattern == value.bitPattern else { return nil }
            return places
        }
    }

    /// The text of `value` with `places` decimal places (for a value that packed with them).
    static func text(_ value: Double, places: UInt8) -> String {
        let places = Int(places)
        let mantissa = UInt64((value * DecimalNumbers.powerOfTen(places)).rounded())
        var digitCount = 1
        var rest = mantissa / 10
        while rest > 0 { digitCount += 1; rest /= 10 }
        digitCount = max(digitCount, places + 1)          // "0.05": the zeros before the digits
        let length = digitCount + (places > 0 ? 1 : 0)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var rest = mantissa
            var end = length
            for written in 0..<digitCount {
                if written == places, places > 0 {
                    end -= 1
                    buffer[end] = 0x2E
                }
                end -= 1
                buffer[end] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
                rest /= 10
            }
            return length
        }
    }
}
