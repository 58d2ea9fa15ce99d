/// An ordered list of header fields. Names keep their case; lookups ignore it (RFC 9110 §5.1).
/// Duplicates are kept in order (`Set-Cookie`, `Link`).
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Field: Sendable, Equatable {
        /// The name as written.
        public let name: String
        /// The value, trimmed of surrounding whitespace.
        public let value: String
    }

    private var fields: [Field] = []

    /// An empty header list.
    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    /// Overlays `other`: each name it carries replaces every field of that name here (its own
    /// repeats kept in order), except names in `preserved` (lowercased), which are left alone.
    public mutating func overlay(_ other: HTTPHeaders, preserving preserved: Set<String> = []) {
        if fields.isEmpty, preserved.isEmpty {
            fields = other.fields
            return
        }
        // The first field of each name in `other` clears that name here: found by a scan of the
        // fields before it in a short list (no allocation), through a set in a long one.
        var seen = other.fields.count > 16 ? Set<String>() : nil
        for (index, field) in other.fields.enumerated() {
            guard preserved.isEmpty || !preserved.contains(field.name.lowercased()) else { continue }
            let isFirst = if seen != nil { seen!.insert(field.name.lowercased()).inserted } else {
                !other.fields[..<index].contains { Self.same($0.name, field.name) }
            }
            if isFirst { remove(field.name) }
            add(field.name, field.value)
        }
    }

    /// The first value of `name`, if any.
    /// - Complexity: O(n).
    public subscript(_ name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Names compared without regard to ASCII case, allocating nothing (names are tokens,
    /// RFC 9110 §5.1; other bytes must match exactly).
    private static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        for (x, y) in zip(a.utf8, b.utf8) where x != y {
            guard folded(x) == folded(y) else { return false }
        }
        return true
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}
