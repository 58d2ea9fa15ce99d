/// Reads `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm|±hhmm|±hh]` (RFC 8216bis §4.4.4.6, ISO 8601)
/// into seconds since 1970 without Foundation formatters. A missing zone is read as UTC.
enum ISO8601DateTime {
    static func secondsSince1970(_ text: ArraySlice<UInt8>) -> Double? {
        Array(text).withUnsafeBufferPointer { secondsSince1970(Bytes(base: $0), Span(start: 0, end: $0.count)) }
    }

    static func secondsSince1970(_ bytes: Bytes, _ span: Span) -> Double? {
        let b = UnsafeBufferPointer(rebasing: bytes.base[span.start..<span.end])
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = Int(b[i]) - 0x30
                guard digit >= 0, digit < 10 else { return nil }
                value = value * 10 + digit
                i += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
              i < b.count, b[i] == 0x54 || b[i] == 0x74 else { return nil }
        i += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2),
              (1...12).contains(month), (1...daysIn(month, year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            var scale = 0.1
            let first = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > first else { return nil }
        }
        var offset = 0
        if i < b.count {
            switch b[i] {
            case 0x5A, 0x7A:
                i += 1
            case 0x2B, 0x2D:
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let hours = number(2), hours < 24 else { return nil }
                var minutes = 0
                if i < b.count {
                    _ = expect(0x3A)
                    guard let m = number(2), m < 60 else { return nil }
                    minutes = m
                }
                offset = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `seconds` since 1970 as `YYYY-MM-DDThh:mm:ss.sssZ` (UTC, to the millisecond, rounded),
    /// or nil for an instant outside years 0–9999.
    static func text(secondsSince1970 seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= -62_167_219_200, seconds < 253_402_300_800 else { return nil }
        let milliseconds = Int64((seconds * 1000).rounded())
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        var day = Int(days), rest = Int(dayMilliseconds)
        if rest < 0 { (day, rest) = (day - 1, rest + 86_400_000) }
        let (year, month, monthDay) = civil(fromDays: day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = rest % 1000
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(monthDay))T\(two(rest / 3_600_000)):\(two(rest / 60_000 % 60)):\(two(rest / 1000 % 60)).\(fraction)Z"
    }

    /// The civil date of `days` since 1970-01-01 (H. Hinnant's algorithm).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
