#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ISO 8601 date-time as written in EXT-X-PROGRAM-DATE-TIME or a Date Range
/// (RFC 8216bis §4.4.4.6), with its instant when it could be read. A value without a time zone
/// is read as UTC. Stored in 24 bytes (NaN stands for "not a valid date-time"), because a live
/// playlist carries one on every segment.
public struct ProgramDateTime: Hashable, Sendable, CustomStringConvertible {
    /// The text as written.
    public let text: String
    /// The instant, or NaN when the text is not a valid date-time.
    private let seconds: Double

    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is not a valid date-time.
    public var secondsSince1970: Double? { seconds.isNaN ? nil : seconds }

    /// Reads `text`.
    public init(text: String) {
        self.init(text: text, secondsSince1970: ISO8601DateTime.secondsSince1970(Array(text.utf8)[...]))
    }

    /// The instant `secondsSince1970`, written `YYYY-MM-DDThh:mm:ss.sssZ` (UTC, to the
    /// millisecond); an instant outside years 0–9999 is not a valid date-time.
    public init(secondsSince1970: Double) {
        let text = ISO8601DateTime.text(secondsSince1970: secondsSince1970)
        self.init(text: text ?? "invalid", secondsSince1970: text.flatMap { ISO8601DateTime.secondsSince1970(Array($0.utf8)[...]) })
    }

    init(text: String, secondsSince1970: Double?) {
        self.text = text
        seconds = secondsSince1970 ?? .nan
    }

    /// The instant, when the text is valid.
    public var date: Date? { secondsSince1970.map { Date(timeIntervalSince1970: $0) } }

    public var description: String { text }

    public static func == (lhs: ProgramDateTime, rhs: ProgramDateTime) -> Bool {
        lhs.text == rhs.text && lhs.secondsSince1970 == rhs.secondsSince1970
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(secondsSince1970)
    }
}
