/// Splits an attribute-list (RFC 8216bis §4.2) into name/value spans without copying: commas
/// split only outside quotes; names are `[A-Z0-9-]`; a quoted value's span excludes its quotes.
struct AttributeScanner {
    /// One attribute as spans into the document.
    struct RawAttribute {
        let name: Span
        let value: Span
        let isQuoted: Bool
    }

    /// Why a list could not be split.
    enum Failure: Error {
        case missingEquals(at: Int)
        case badName(Span)
        case unterminatedQuote(name: Span)
        case junkAfterQuote(name: Span)
        case trailingComma
        case duplicate(Span)
    }

    /// Splits `span` into `output` (cleared first; reused to avoid allocation).
    static func scan(_ bytes: Bytes, _ span: Span, into output: inout [RawAttribute]) throws(Failure) {
        output.removeAll(keepingCapacity: true)
        var i = span.start
        while i < span.end {
            let nameStart = i
            while i < span.end, bytes[i] != 0x3D, bytes[i] != 0x2C { i += 1 }
            guard i < span.end, bytes[i] == 0x3D else { throw .missingEquals(at: nameStart) }
            let name = Span(start: nameStart, end: i)
            guard !name.isEmpty, Self.isName(bytes, name) else { throw .badName(name) }
            i += 1
            let value: Span
            let quoted = i < span.end && bytes[i] == 0x22
            if quoted {
                let open = i + 1
                var close = open
                while close < span.end, bytes[close] != 0x22 { close += 1 }
                guard close < span.end else { throw .unterminatedQuote(name: name) }
                value = Span(start: open, end: close)
                i = close + 1
                guard i == span.end || bytes[i] == 0x2C else { throw .junkAfterQuote(name: name) }
            } else {
                let start = i
                while i < span.end, bytes[i] != 0x2C { i += 1 }
                value = Span(start: start, end: i)
            }
            if i < span.end {   // at a comma
                i += 1
                guard i < span.end else { throw .trailingComma }
            }
            for existing in output where existing.name.count == name.count {
                var same = true
                for k in 0..<name.count where bytes[existing.name.start + k] != bytes[name.start + k] {
                    same = false
                    break
                }
                if same { throw .duplicate(name) }
            }
            output.append(RawAttribute(name: name, value: value, isQuoted: quoted))
        }
    }

    private static func isName(_ bytes: Bytes, _ span: Span) -> Bool {
        for i in span.start..<span.end {
            let c = bytes[i]
            let upper = c >= 0x41 && c <= 0x5A, lower = c >= 0x61 && c <= 0x7A, digit = c >= 0x30 && c <= 0x39
            guard upper || lower || digit || c == 0x2D || c == 0x5F else { return false }   // lenient: reported later
        }
        return true
    }
}
