/// Keeps a written playlist reading back as the model it came from when a substituted value
/// holds `{$`: the parser does not rescan replacement text (RFC 8216bis §4.3), but it does scan
/// written text, so a value that came from a variable whose value holds `{$name}` (an IMPORT or
/// QUERYPARAM, most often) is written back as the reference to that variable — `{$a}` — and
/// reads back to the same text. Applied to URI lines and quoted-string values only, the places a
/// parser substitutes; a variable can be referred to only after its own EXT-X-DEFINE is written.
struct VariableReferenceText {
    /// Variables whose value holds `{$`, longest value first.
    private var references: [(name: String, value: String)] = []

    /// Whether anything needs protecting at all (the common case is no).
    var isEmpty: Bool { references.isEmpty }

    /// Makes `definition` available to the text written after its tag.
    mutating func define(_ definition: VariableDefinition) {
        guard definition.resolvedValue.utf8.count > 1, Self.holdsReferenceStart(definition.resolvedValue) else { return }
        references.append((definition.name, definition.resolvedValue))
        references.sort { $0.value.utf8.count > $1.value.utf8.count }
    }

    /// `text` (a URI line or a quoted value) with each occurrence of a protected variable's value
    /// written as its reference.
    func protect(_ text: String) -> String {
        guard !references.isEmpty, Self.holdsReferenceStart(text) else { return text }
        var output = ""
        var rest = Substring(text)
        scan: while !rest.isEmpty {
            for reference in references where rest.hasPrefix(reference.value) {
                output += "{$" + reference.name + "}"
                rest = rest.dropFirst(reference.value.count)
                continue scan
            }
            output.append(rest.removeFirst())
        }
        return output
    }

    /// `line` (a tag with an attribute list) with every quoted-string value protected.
    func protectQuotedValues(_ line: String) -> String {
        guard !references.isEmpty, Self.holdsReferenceStart(line) else { return line }
        var output = ""
        var inside = false
        var value = ""
        for character in line {
            if character == "\"" {
                if inside { output += protect(value) }
                value = ""
                inside.toggle()
                output.append(character)
            } else if inside {
                value.append(character)
            } else {
                output.append(character)
            }
        }
        return output + value
    }

    /// Whether `text` holds `{$`.
    static func holdsReferenceStart(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "{"), byte == UInt8(ascii: "$") { return true }
            previous = byte
        }
        return false
    }
}
