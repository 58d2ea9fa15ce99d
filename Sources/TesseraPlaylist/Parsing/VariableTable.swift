/// EXT-X-DEFINE variables and `{$name}` substitution (RFC 8216bis §4.3, §4.4.2.3): a reference is
/// replaced only by a variable defined earlier; replacement text is not scanned again; the total
/// expanded size is bounded so a few definitions cannot blow up into gigabytes.
struct VariableTable {
    private(set) var values: [String: String] = [:]
    private(set) var definitions: [VariableDefinition] = []
    private(set) var hasSubstituted = false
    private var expandedBytes = 0
    let maximumExpandedBytes: Int

    init(maximumExpandedBytes: Int) { self.maximumExpandedBytes = maximumExpandedBytes }

    /// Records a definition.
    /// - Throws: `duplicate-variable`.
    mutating func define(_ definition: VariableDefinition) throws(PlaylistError) {
        guard values[definition.name] == nil else {
            throw PlaylistError(.duplicateVariable, "Variable \"\(definition.name)\" is defined twice.", line: definition.line.number)
        }
        values[definition.name] = definition.resolvedValue
        definitions.append(definition)
    }

    /// True for a legal variable name: `[a-zA-Z0-9_-]+`.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D
        }
    }

    /// The text of `span` with every `{$name}` replaced.
    /// - Throws: `undefined-variable`; `limit-exceeded` past the expansion bound.
    mutating func substitute(_ bytes: Bytes, _ span: Span, line: Int) throws(PlaylistError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(span.count)
        var i = span.start
        while i < span.end {
            if bytes[i] == 0x7B, i + 1 < span.end, bytes[i + 1] == 0x24,
               let close = referenceEnd(bytes, from: i + 2, end: span.end) {
                let name = bytes.string(Span(start: i + 2, end: close))
                guard let value = values[name] else {
                    throw PlaylistError(.undefinedVariable,
                                        "{$\(name)} refers to a variable not defined by an earlier EXT-X-DEFINE.", line: line)
                }
                output.append(contentsOf: value.utf8)
                hasSubstituted = true
                i = close + 1
            } else {
                output.append(bytes[i])
                i += 1
            }
        }
        expandedBytes += output.count
        guard expandedBytes <= maximumExpandedBytes else {
            throw PlaylistError(.limitExceeded,
                                "Variable substitution expands the playlist past \(maximumExpandedBytes) bytes.", line: line)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The index of the `}` closing a reference whose name starts at `from`, or nil when the text
    /// is not a reference (it is then kept literally).
    private func referenceEnd(_ bytes: Bytes, from: Int, end: Int) -> Int? {
        var i = from
        while i < end {
            let c = bytes[i]
            if c == 0x7D { return i > from ? i : nil }
            let legal = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D
            guard legal else { return nil }
            i += 1
        }
        return nil
    }
}
