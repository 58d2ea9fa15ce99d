/// HTTP-dates (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate),
/// `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete RFC 850; two-digit years read as the most recent
/// year ending in those digits no more than 50 years ahead, per §5.6.7), and
/// `Sun Nov  6 08:49:37 1994` (asctime).
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, with RFC 850 two-digit years read against `now`.
    static func secondsSince1970(_ text: String, now: Int64) -> Int64? {
        let currentYear = year(of: now)
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" {   // IMF-fixdate
            guard let day = number(parts[1], digits: 1...2), let month = month(parts[2]), let year = number(parts[3], digits: 4...4) else { return nil }
            return compose(year, month, day, parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {   // RFC 850
            let date = parts[1].split(separator: "-").map(String.init)
            guard date.count == 3, let day = number(date[0], digits: 1...2), let month = month(date[1]), let short = number(date[2], digits: 2...2)
            else { return nil }
            var year = currentYear - currentYear % 100 + short
            if year > currentYear + 50 { year -= 100 }
            return compose(year, month, day, parts[2])
        }
        if parts.count == 5 {   // asctime
            guard let month = month(parts[1]), let day = number(parts[2], digits: 1...2), let year = number(parts[4], digits: 4...4) else { return nil }
            return compose(year, month, day, parts[3])
        }
        return nil
    }

    /// The UTC calendar year of an instant (H. Hinnant's civil-from-days).
    static func year(of seconds: Int64) -> Int {
        let days = Int((seconds >= 0 ? seconds : seconds - 86399) / 86400) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0)
    }

    private static func month(_ text: String) -> Int? {
        months.firstIndex(of: text).map { $0 + 1 }
    }

    /// `text` as a decimal number of ASCII digits only (no sign), of a length in `digits`.
    private static func number(_ text: some StringProtocol, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
        return Int(text)
    }

    /// `hh:mm:ss`, one or two digits each (a signed or long field, as `-0000000100`, is refused:
    /// it overflowed the seconds once — found by FuzzHeaderValues).
    private static func compose(_ year: Int, _ month: Int, _ day: Int, _ time: String) -> Int64? {
        let fields = time.split(separator: ":", omittingEmptySubsequences: false)
        let clock = fields.compactMap { number($0, digits: 1...2) }
        guard fields.count == 3, clock.count == 3, (1...31).contains(day), clock[0] < 24, clock[1] < 60, clock[2] < 61 else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        return Int64(days) * 86400 + Int64(clock[0] * 3600 + clock[1] * 60 + clock[2])
    }
}
