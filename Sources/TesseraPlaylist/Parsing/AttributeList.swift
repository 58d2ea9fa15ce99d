/// An attribute list (RFC 8216bis §4.2): `NAME=value` pairs separated by commas, values being
/// quoted strings, hexadecimal sequences, decimal numbers or enumerated strings.
struct AttributeList {
    /// One attribute as written.
    struct Attribute {
        let name: Substring
        let value: Substring
        let isQuoted: Bool
    }

    let attributes: [Attribute]

    /// Parses `text`; throws for a malformed list or a repeated name.
    init(_ text: Substring, line: Int, tag: String) throws(PlaylistError) {
        var attributes: [Attribute] = []
        var rest = text
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                throw PlaylistError(.malformedTag, "\(tag) has an attribute without a value.", line: line)
            }
            let name = rest[..<equals]
            guard !name.isEmpty, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "-" }) else {
                throw PlaylistError(.malformedTag, "\(tag) has a malformed attribute name \"\(name)\".", line: line)
            }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            let quoted = rest.first == "\""
            if quoted {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    throw PlaylistError(.malformedTag, "\(tag) attribute \(name) has an unterminated quoted string.", line: line)
                }
                value = body[..<close]
                rest = body[body.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            if !rest.isEmpty {
                guard rest.first == "," else {
                    throw PlaylistError(.malformedTag, "\(tag) attribute \(name) is followed by \"\(rest.prefix(8))\" instead of a comma.", line: line)
                }
                rest = rest.dropFirst()
                guard !rest.isEmpty else {
                    throw PlaylistError(.malformedTag, "\(tag) ends with a comma.", line: line)
                }
            }
            guard !attributes.contains(where: { $0.name == name }) else {
                throw PlaylistError(.malformedTag, "\(tag) repeats attribute \(name).", line: line)
            }
            attributes.append(Attribute(name: name, value: value, isQuoted: quoted))
        }
        self.attributes = attributes
    }

    subscript(_ name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }
}
