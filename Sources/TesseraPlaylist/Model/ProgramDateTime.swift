#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ISO 8601 date-time as written in EXT-X-PROGRAM-DATE-TIME or a Date Range
/// (RFC 8216bis §4.4.4.6), with its instant when it could be read. A value without a time zone
/// is read as UTC.
public struct ProgramDateTime: Hashable, Sendable, CustomStringConvertible {
    /// The text as written.
    public let text: String
    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is not a valid date-time.
    public let secondsSince1970: Double?

    /// Reads `text`.
    public init(text: String) {
        self.text = text
        secondsSince1970 = ISO8601DateTime.secondsSince1970(Array(text.utf8)[...])
    }

    init(text: String, secondsSince1970: Double?) {
        self.text = text
        self.secondsSince1970 = secondsSince1970
    }

    /// The instant, when the text is valid.
    public var date: Date? { secondsSince1970.map { Date(timeIntervalSince1970: $0) } }

    public var description: String { text }
}
