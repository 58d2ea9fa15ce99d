/// A JSON value with ordered object keys and explicit nulls (the inspect contract names every
/// field, absent ones as null), serialised compactly or pretty-printed.
enum JSONValue {
    case null
    case bool(Bool)
    case integer(UInt64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func optional<T>(_ value: T?, _ make: (T) -> JSONValue) -> JSONValue {
        value.map(make) ?? .null
    }

    static func string(_ value: String?) -> JSONValue { optional(value) { .string($0) } }
    static func integer(_ value: UInt64?) -> JSONValue { optional(value) { .integer($0) } }
    static func number(_ value: Double?) -> JSONValue { optional(value) { .number($0) } }

    /// Two-space indented text.
    func rendered() -> String {
        var out = ""
        render(into: &out, indent: 0)
        return out
    }

    private func render(into out: inout String, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .integer(let value): out += String(value)
        case .number(let value): out += value.isFinite ? Self.number(value) : "null"
        case .string(let value): Self.quote(value, into: &out)
        case .array(let values):
            guard !values.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (index, value) in values.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                value.render(into: &out, indent: indent + 2)
                out += index == values.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let fields):
            guard !fields.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (index, (key, value)) in fields.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                Self.quote(key, into: &out)
                out += ": "
                value.render(into: &out, indent: indent + 2)
                out += index == fields.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
