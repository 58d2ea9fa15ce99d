/// Typed reading of one tag's attribute list, with variable substitution where §4.3 allows it
/// (quoted-strings and hexadecimal-sequences) and a diagnostic for every malformed value.
extension PlaylistBuilder {
    /// The attributes of a tag, with the ones read so far marked.
    struct Attributes {
        let raw: [AttributeScanner.RawAttribute]
        let tag: String
        var consumed: [Bool]
    }

    /// Splits `value` as an attribute list; nil (with a diagnostic) when it cannot be split.
    mutating func attributes(_ value: Span, tag: String) throws(PlaylistError) -> Attributes? {
        do {
            try AttributeScanner.scan(bytes, value, into: &scratch)
        } catch {
            let detail: String
            switch error {
            case .missingEquals: detail = "an attribute has no '='"
            case .badName(let name): detail = "\"\(bytes.string(name))\" is not an attribute name"
            case .unterminatedQuote(let name): detail = "\(bytes.string(name)) has an unterminated quoted string"
            case .junkAfterQuote(let name): detail = "\(bytes.string(name))'s quoted string is followed by text instead of a comma"
            case .trailingComma: detail = "it ends with a comma"
            case .duplicate(let name): detail = "attribute \(bytes.string(name)) appears twice"
            }
            report(.malformedAttributeList, .error, "4.2", "\(tag) is ignored: \(detail).")
            return nil
        }
        guard scratch.count <= limits.maximumAttributes else {
            throw PlaylistError(.limitExceeded, "\(tag) has more than \(limits.maximumAttributes) attributes.", line: line)
        }
        for attribute in scratch where !isConformingName(attribute.name) {
            report(.attributeNameCharacters, .error, "4.2",
                   "\(tag) attribute \"\(bytes.string(attribute.name))\" uses characters outside A-Z, 0-9 and '-'.")
        }
        return Attributes(raw: scratch, tag: tag, consumed: Array(repeating: false, count: scratch.count))
    }

    private func isConformingName(_ span: Span) -> Bool {
        for i in span.start..<span.end {
            let c = bytes[i]
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D else { return false }
        }
        return true
    }

    private mutating func take(_ attributes: inout Attributes, _ name: StaticString) -> AttributeScanner.RawAttribute? {
        for (index, attribute) in attributes.raw.enumerated() where bytes.equals(attribute.name, name) {
            attributes.consumed[index] = true
            return attribute
        }
        return nil
    }

    private mutating func typeError(_ attributes: Attributes, _ name: StaticString, _ expected: String) {
        report(.malformedAttribute, .error, "4.2", "\(attributes.tag) attribute \(name) must be \(expected); it is ignored.")
    }

    /// A quoted-string, substituted.
    mutating func quoted(_ attributes: inout Attributes, _ name: StaticString) throws(PlaylistError) -> String? {
        guard let attribute = take(&attributes, name) else { return nil }
        guard attribute.isQuoted else {
            typeError(attributes, name, "a quoted string")
            return nil
        }
        return try text(attribute.value)
    }

    /// The text of `span`, substituted when it holds a reference.
    mutating func text(_ span: Span) throws(PlaylistError) -> String {
        bytes.containsVariableReference(span) ? try variables.substitute(bytes, span, line: line) : bytes.string(span)
    }

    /// A hexadecimal-sequence, substituted.
    mutating func hexadecimal(_ attributes: inout Attributes, _ name: StaticString) throws(PlaylistError) -> [UInt8]? {
        guard let attribute = take(&attributes, name) else { return nil }
        let value: [UInt8]?
        if attribute.isQuoted {
            value = nil
        } else if bytes.containsVariableReference(attribute.value) {
            let expanded = Array(try variables.substitute(bytes, attribute.value, line: line).utf8)
            value = expanded.withUnsafeBufferPointer { DecimalNumbers.hexadecimal(Bytes(base: $0), Span(start: 0, end: $0.count)) }
        } else {
            value = DecimalNumbers.hexadecimal(bytes, attribute.value)
        }
        guard let value else {
            typeError(attributes, name, "a hexadecimal sequence (0x…)")
            return nil
        }
        return value
    }

    /// An unquoted value decoded by `decode`; a diagnostic (and nil) when it does not decode.
    private mutating func unquoted<T>(_ attributes: inout Attributes, _ name: StaticString, expected: String,
                             _ decode: (Span) -> T?) -> T? {
        guard let attribute = take(&attributes, name) else { return nil }
        guard !attribute.isQuoted, let value = decode(attribute.value) else {
            typeError(attributes, name, expected)
            return nil
        }
        return value
    }

    /// A decimal-integer.
    mutating func integer(_ attributes: inout Attributes, _ name: StaticString) -> UInt64? {
        let bytes = self.bytes
        return unquoted(&attributes, name, expected: "a decimal integer") { DecimalNumbers.integer(bytes, $0) }
    }

    /// A decimal-floating-point (or signed), with its text.
    mutating func float(_ attributes: inout Attributes, _ name: StaticString, signed: Bool = false) -> (Double, String)? {
        let bytes = self.bytes
        return unquoted(&attributes, name, expected: signed ? "a signed decimal number" : "a non-negative decimal number") { span in
            DecimalNumbers.float(bytes, span, signed: signed).map { ($0, bytes.string(span)) }
        }
    }

    /// An enumerated-string's span (not substituted).
    mutating func enumerated(_ attributes: inout Attributes, _ name: StaticString) -> Span? {
        guard let attribute = take(&attributes, name) else { return nil }
        guard !attribute.isQuoted, !attribute.value.isEmpty else {
            typeError(attributes, name, "an unquoted enumerated value")
            return nil
        }
        return attribute.value
    }

    /// An enumerated YES/NO; absent is `false`. Any other value is reported.
    mutating func flag(_ attributes: inout Attributes, _ name: StaticString, onlyYes: Bool = false) -> Bool {
        guard let span = enumerated(&attributes, name) else { return false }
        if bytes.equals(span, "YES") { return true }
        if !onlyYes, bytes.equals(span, "NO") { return false }
        report(.unknownEnumeratedValue, .warning, "6.3.1",
               "\(attributes.tag) attribute \(name) must be \(onlyYes ? "YES" : "YES or NO"), not \(bytes.string(span)).")
        return false
    }

    /// A decimal-resolution.
    mutating func resolution(_ attributes: inout Attributes, _ name: StaticString) -> Resolution? {
        let bytes = self.bytes
        return unquoted(&attributes, name, expected: "a resolution such as 1920x1080") { DecimalNumbers.resolution(bytes, $0) }
    }

    /// The attributes not read, verbatim and in order.
    mutating func unknown(_ attributes: Attributes) -> [UnknownAttribute] {
        var out: [UnknownAttribute] = []
        for (index, attribute) in attributes.raw.enumerated() where !attributes.consumed[index] {
            let raw = attribute.isQuoted
                ? "\"" + bytes.string(attribute.value) + "\""
                : bytes.string(attribute.value)
            out.append(UnknownAttribute(name: bytes.string(attribute.name), rawValue: raw))
        }
        return out
    }

    /// Reports a missing REQUIRED attribute; the tag is then ignored.
    mutating func missing(_ attributes: Attributes, _ name: StaticString, section: String) {
        report(.missingAttribute, .error, section, "\(attributes.tag) has no \(name) attribute; the tag is ignored.")
    }

    /// Reports an enumerated value the spec does not define; the tag is ignored (§6.3.1).
    mutating func unknownValue(_ attributes: Attributes, _ name: StaticString, _ span: Span, section: String) {
        report(.unknownEnumeratedValue, .warning, "6.3.1",
               "\(attributes.tag) attribute \(name) has the unknown value \(bytes.string(span)); the tag is ignored.")
    }
}
