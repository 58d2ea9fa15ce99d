/// A `Retry-After` value (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date in any of the three
/// formats RFC 9110 §5.6.7 requires recipients to accept (IMF-fixdate, obsolete RFC 850, asctime).
public enum RetryAfter: Equatable, Sendable {
    /// Wait this many seconds.
    case seconds(UInt64)
    /// Retry at this instant (seconds since 1970, UTC).
    case date(secondsSince1970: Int64)

    /// Parses a header value; nil when it is neither form. `now` (seconds since 1970) anchors
    /// RFC 850 two-digit years.
    public init?(headerValue: String, now: Int64) {
        let text = headerValue.trimmingSpaces
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let seconds = UInt64(text) else { return nil }
            self = .seconds(seconds)
            return
        }
        guard let date = HTTPDate.secondsSince1970(text, now: now) else { return nil }
        self = .date(secondsSince1970: date)
    }

    /// The delay from `now` (seconds since 1970), never negative.
    public func delay(now: Int64) -> Duration {
        switch self {
        case .seconds(let seconds): .seconds(Int64(clamping: seconds))
        case .date(let instant): .seconds(max(0, instant - now))
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
