/// The directives of one or more `Cache-Control` field lines (RFC 9111 §5.2), as a private
/// (client) cache reads them.
///
/// Parsing is tolerant in the ways §4.2.1 and §5.2 ask: directive names are case-insensitive,
/// values may be tokens or quoted strings, unknown directives are kept but ignored, and a
/// malformed or duplicated freshness directive makes the response stale rather than fresh.
public struct CacheControl: Sendable, Equatable {
    /// Every directive in field order, names lowercased, values unquoted.
    public private(set) var directives: [(name: String, value: String?)] = []

    /// Parses the combined field lines; an empty list gives no directives.
    public init(fieldValues: [String]) {
        for value in fieldValues { parse(Array(value.utf8)) }
    }

    /// Parses the `Cache-Control` lines of `headers`.
    public init(headers: HTTPHeaders) {
        self.init(fieldValues: headers.values("Cache-Control"))
    }

    /// Whether the directive is present (with or without a value).
    public func contains(_ name: String) -> Bool {
        directives.contains { $0.name == name }
    }

    /// A delta-seconds directive such as `max-age`: nil when absent; `.invalid` when present more
    /// than once or with a value that is not delta-seconds (RFC 9111 §4.2.1: treat as stale).
    public func seconds(_ name: String) -> DeltaSeconds? {
        let matches = directives.filter { $0.name == name }
        guard let first = matches.first else { return nil }
        guard matches.count == 1, let value = first.value.flatMap(Self.deltaSeconds) else { return .invalid }
        return .seconds(value)
    }

    /// Parses delta-seconds (RFC 9111 §1.2.2) with surrounding spaces; a value too large to
    /// represent is read as 2^31 seconds (about 68 years).
    static func deltaSeconds(_ text: String) -> Int64? {
        var digits = Substring(text)
        while let f = digits.first, f == " " || f == "\t" { digits = digits.dropFirst() }
        while let l = digits.last, l == " " || l == "\t" { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(digits).map { min($0, 2_147_483_648) } ?? 2_147_483_648
    }

    /// A parsed delta-seconds directive.
    public enum DeltaSeconds: Sendable, Equatable {
        /// A well-formed value.
        case seconds(Int64)
        /// Duplicated or malformed.
        case invalid
    }

    /// `no-store`: never store the response (request or response directive).
    public var noStore: Bool { contains("no-store") }
    /// `no-cache`: store, but revalidate before every reuse.
    public var noCache: Bool { contains("no-cache") }
    /// `must-revalidate`: once stale, never serve without successful revalidation.
    public var mustRevalidate: Bool { contains("must-revalidate") }
    /// `immutable` (RFC 8246): a fresh response needs no conditional revalidation on reload.
    public var immutable: Bool { contains("immutable") }

    public static func == (lhs: CacheControl, rhs: CacheControl) -> Bool {
        lhs.directives.elementsEqual(rhs.directives) { $0.name == $1.name && $0.value == $1.value }
    }

    // MARK: Parsing (RFC 9110 §5.6.1 lists, §5.6.2 tokens, §5.6.4 quoted strings)

    private mutating func parse(_ bytes: [UInt8]) {
        var i = 0
        func skipSpace() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
        func skipToComma() { while i < bytes.count, bytes[i] != 0x2C { i += 1 } }
        while i < bytes.count {
            skipSpace()
            let nameStart = i
            while i < bytes.count, Self.isTokenByte(bytes[i]) { i += 1 }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            skipSpace()
            var value: String?
            if i < bytes.count, bytes[i] == 0x3D {   // '='
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == 0x22 {
                    value = quotedString(bytes, &i)
                } else {
                    let valueStart = i
                    while i < bytes.count, Self.isTokenByte(bytes[i]) { i += 1 }
                    value = String(decoding: bytes[valueStart..<i], as: UTF8.self)
                }
                skipSpace()
            }
            if i < bytes.count, bytes[i] != 0x2C {
                // Garbage after the directive: drop the malformed element, keep its name so a
                // freshness directive reads as invalid rather than absent.
                if !name.isEmpty { directives.append((name, "")) }
                skipToComma()
            } else if !name.isEmpty {
                directives.append((name, value))
            }
            i += 1   // past the comma (or the end)
        }
    }

    private func quotedString(_ bytes: [UInt8], _ i: inout Int) -> String {
        var out: [UInt8] = []
        i += 1   // opening quote
        while i < bytes.count, bytes[i] != 0x22 {
            if bytes[i] == 0x5C, i + 1 < bytes.count { i += 1 }   // quoted-pair
            out.append(bytes[i])
            i += 1
        }
        if i < bytes.count { i += 1 }   // closing quote
        return String(decoding: out, as: UTF8.self)
    }

    private static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
