/// How a date-time text is written, when its instant alone rebuilds it byte for byte:
/// `YYYY-MM-DDThh:mm:ss`, up to three fraction digits after `.`, and no zone, `Z`, `±hh:mm` or
/// `±hhmm` — what packagers write on every segment. Two bytes instead of a string a segment
/// (RFC 8216bis §4.4.4.6); any other text keeps its string.
struct DateTimeForm: Hashable {
    /// Bits 0–1: fraction digits; 2–3: the zone (none, `Z`, `±hh:mm`, `±hhmm`); 4–15: the offset
    /// in minutes plus 1441, so a form is never 0.
    let raw: UInt16

    /// The longest text a form writes (`YYYY-MM-DDThh:mm:ss.sss+hh:mm`).
    static let maximumLength = 29

    private init?(fractionDigits: Int, zone: Int, offsetMinutes: Int) {
        guard (0...3).contains(fractionDigits), (0...3).contains(zone), abs(offsetMinutes) <= 1439 else { return nil }
        raw = UInt16(fractionDigits | zone << 2 | (offsetMinutes + 1441) << 4)
    }

    init(raw: UInt16) { self.raw = raw }

    /// `YYYY-MM-DDThh:mm:ss.sssZ`: three fraction digits in UTC, what most packagers write.
    static var utcMilliseconds: DateTimeForm { DateTimeForm(raw: 3 | 1 << 2 | 1441 << 4) }

    private var fractionDigits: Int { Int(raw & 3) }
    private var zone: Int { Int(raw >> 2 & 3) }
    private var offsetMinutes: Int { Int(raw >> 4) - 1441 }

    /// Whether the text names its time zone.
    var hasZone: Bool { zone != 0 }

    /// The form of `text`, a valid date-time read as `seconds`, when writing `seconds` in it gives
    /// `text` back exactly. Read from the text's shape alone: the date and time fields are fixed
    /// width, the calendar arithmetic is exact, and the instant keeps every written fraction
    /// digit: within years 0–9999 (under 2^38 s from 1970) a double is within 2^-14 s of the
    /// instant written, far inside the half of the last place (at least 0.0005 s) that rounding
    /// it back allows. The test suite writes back a wide sample of dates in every form.
    static func of(_ text: UnsafeBufferPointer<UInt8>, seconds: Double) -> DateTimeForm? {
        let count = text.count
        guard !seconds.isNaN, count >= 19, count <= maximumLength, text[10] == 0x54,   // "T"
              text[17] < 0x36 else { return nil }   // second 60 (a leap second) reads as the next minute's 00
        func digit(_ index: Int) -> Int? {
            let value = Int(text[index]) - 0x30
            return (0...9).contains(value) ? value : nil
        }
        var index = 19
        var fractionDigits = 0
        if index < count, text[index] == 0x2E {   // "."
            index += 1
            while index < count, digit(index) != nil { index += 1; fractionDigits += 1 }
            guard fractionDigits > 0 else { return nil }
        }
        var zone = 0
        var offset = 0
        if index < count {
            switch text[index] {
            case 0x5A:   // "Z"
                zone = 1
                index += 1
            case 0x2B, 0x2D:   // "+", "-"
                let colon = count - index == 6 && text[index + 3] == 0x3A
                guard colon || count - index == 5, let h1 = digit(index + 1), let h2 = digit(index + 2),
                      let m1 = digit(count - 2), let m2 = digit(count - 1) else { return nil }
                zone = colon ? 2 : 3
                offset = (text[index] == 0x2D ? -1 : 1) * ((h1 * 10 + h2) * 60 + m1 * 10 + m2)
                guard offset != 0 || text[index] == 0x2B else { return nil }   // "-00:00" is written "+00:00"
                index = count
            default:
                return nil
            }
        }
        guard index == count else { return nil }
        return DateTimeForm(fractionDigits: fractionDigits, zone: zone, offsetMinutes: offset)
    }

    /// The text of `seconds` in this form.
    func text(_ seconds: Double) -> String {
        String(unsafeUninitializedCapacity: Self.maximumLength) { write(seconds, into: $0) }
    }

    /// Writes `seconds` in this form into `buffer` (at least `maximumLength` bytes); returns the
    /// bytes written, 0 for an instant outside years 0–9999.
    func write(_ seconds: Double, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let scale: Int64 = fractionDigits == 0 ? 1 : fractionDigits == 1 ? 10 : fractionDigits == 2 ? 100 : 1000
        let local = seconds + Double(offsetMinutes * 60)
        guard local.isFinite, local >= -62_167_219_200, local < 253_402_300_800 else { return 0 }
        let units = Int64((local * Double(scale)).rounded())
        let perDay = 86_400 * scale
        var (days, rest) = units.quotientAndRemainder(dividingBy: perDay)
        if rest < 0 { (days, rest) = (days - 1, rest + perDay) }
        let (year, month, day) = ISO8601DateTime.civil(fromDays: Int(days))
        guard (0...9999).contains(year) else { return 0 }
        let second = Int(rest / scale)
        var end = 0
        func put(_ value: Int, _ width: Int) {
            var value = value
            for position in stride(from: end + width - 1, through: end, by: -1) {
                buffer[position] = UInt8(truncatingIfNeeded: value % 10) + 0x30
                value /= 10
            }
            end += width
        }
        func put(byte: UInt8) { buffer[end] = byte; end += 1 }
        put(year, 4); put(byte: 0x2D); put(month, 2); put(byte: 0x2D); put(day, 2); put(byte: 0x54)
        put(second / 3600, 2); put(byte: 0x3A); put(second / 60 % 60, 2); put(byte: 0x3A); put(second % 60, 2)
        if fractionDigits > 0 {
            put(byte: 0x2E)
            put(Int(rest % scale), fractionDigits)
        }
        switch zone {
        case 1: put(byte: 0x5A)
        case 2, 3:
            put(byte: offsetMinutes < 0 ? 0x2D : 0x2B)
            put(abs(offsetMinutes) / 60, 2)
            if zone == 2 { put(byte: 0x3A) }
            put(abs(offsetMinutes) % 60, 2)
        default: break
        }
        return end
    }
}
