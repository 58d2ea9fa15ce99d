#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ISO 8601 date-time as written in EXT-X-PROGRAM-DATE-TIME or a Date Range
/// (RFC 8216bis §4.4.4.6), with its instant when it could be read. A value without a time zone
/// is read as UTC. A live playlist carries one on every segment, so it is kept without a string
/// when its instant rebuilds its text byte for byte (`YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm|±hhmm]`,
/// what packagers write): the instant and two bytes of form. Any other text is kept as written.
public struct ProgramDateTime: Hashable, Sendable, CustomStringConvertible {
    /// The instant, or NaN when the text is not a valid date-time.
    private let seconds: Double
    /// The form that rebuilds the text beside a valid instant, or the text as written. Eight
    /// bytes: a packed date costs no allocation, no reference count and no string to make; the
    /// rare text that does not pack is boxed (a string inline would make every date 9 bytes longer).
    private let storage: Storage

    private enum Storage: Hashable {
        case packed(DateTimeForm)
        case text(TextBox)
    }

    /// A text kept as written.
    private final class TextBox: Hashable, Sendable {
        let text: String
        init(_ text: String) { self.text = text }
        static func == (lhs: TextBox, rhs: TextBox) -> Bool { lhs.text == rhs.text }
        func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }

    /// The form that rebuilds the text, or nil when the text is kept as written.
    var form: DateTimeForm? {
        guard case .packed(let form) = storage else { return nil }
        return form
    }

    /// The text as written.
    public var text: String {
        switch storage {
        case .packed(let form): form.text(seconds)
        case .text(let box): box.text
        }
    }

    /// Runs `body` on the text's UTF-8 bytes — for a packed date, written on the stack rather
    /// than into a new string (a JSON writer's way to a live playlist's every date).
    func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard case .packed(let form) = storage else {
            var text = text
            return text.withUTF8(body)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DateTimeForm.maximumLength) { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[..<form.write(seconds, into: buffer)]))
        }
    }

    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is not a valid date-time.
    public var secondsSince1970: Double? { seconds.isNaN ? nil : seconds }

    /// Reads `text`.
    public init(text: String) {
        var text = text
        self = text.withUTF8 { utf8 in ProgramDateTime(Bytes(base: utf8), Span(start: 0, end: utf8.count)) }
    }

    /// The instant `secondsSince1970`, written `YYYY-MM-DDThh:mm:ss.sssZ` (UTC, to the
    /// millisecond); an instant outside years 0–9999 is not a valid date-time.
    public init(secondsSince1970: Double) {
        self.init(text: ISO8601DateTime.text(secondsSince1970: secondsSince1970) ?? "invalid")
    }

    /// The date-time written in `span` of `bytes` (the parser's).
    init(_ bytes: Bytes, _ span: Span) {
        let read = ISO8601DateTime.secondsSince1970(bytes, span)
        seconds = read ?? .nan
        if let read, let form = DateTimeForm.of(UnsafeBufferPointer(rebasing: bytes.base[span.start..<span.end]), seconds: read) {
            storage = .packed(form)
        } else {
            storage = .text(TextBox(bytes.string(span)))
        }
    }

    /// A packed date: the instant and the form that rebuilds its text (how `MediaSegments` stores one).
    init(seconds: Double, form: DateTimeForm) {
        self.seconds = seconds
        storage = .packed(form)
    }

    /// The instant as stored (NaN when the text is not a valid date-time).
    var storedSeconds: Double { seconds }

    /// Whether the text names its time zone.
    var hasZone: Bool {
        switch storage {
        case .packed(let form): form.hasZone
        case .text(let box): PlaylistValidator.hasZone(box.text)
        }
    }

    /// The instant, when the text is valid.
    public var date: Date? { secondsSince1970.map { Date(timeIntervalSince1970: $0) } }

    public var description: String { text }

    // A text that packs is packed however the value was made, and its instant is read from it:
    // equal texts are equal storage and instant either way.
    public static func == (lhs: ProgramDateTime, rhs: ProgramDateTime) -> Bool {
        lhs.storage == rhs.storage && lhs.secondsSince1970 == rhs.secondsSince1970
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
        hasher.combine(secondsSince1970)
    }
}
