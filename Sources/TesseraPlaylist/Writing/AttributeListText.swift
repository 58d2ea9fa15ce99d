/// Builds an attribute list (RFC 8216bis §4.2) in the order attributes are added.
struct AttributeListText {
    private(set) var text = ""

    private mutating func add(_ name: String, _ value: String) {
        if !text.isEmpty { text += "," }
        text += name
        text += "="
        text += value
    }

    mutating func quoted(_ name: String, _ value: String?) {
        if let value { add(name, "\"" + value + "\"") }
    }

    mutating func enumerated(_ name: String, _ value: String?) {
        if let value { add(name, value) }
    }

    mutating func integer(_ name: String, _ value: UInt64?) {
        if let value { add(name, String(value)) }
    }

    mutating func decimal(_ name: String, _ value: Double?) {
        if let value { add(name, DecimalText.format(value)) }
    }

    mutating func hexadecimal(_ name: String, _ value: [UInt8]?) {
        if let value { add(name, HexText.format(value)) }
    }

    mutating func yes(_ name: String, _ value: Bool) {
        if value { add(name, "YES") }
    }

    mutating func unknown(_ attributes: [UnknownAttribute]) {
        for attribute in attributes { add(attribute.name, attribute.rawValue) }
    }
}

/// `0x` and upper-case hexadecimal digits.
package enum HexText {
    /// The text of `bytes`.
    package static func format(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = [0x30, 0x78]
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
