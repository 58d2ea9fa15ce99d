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
        var replaced = Set<String>()
        for field in other {
            let name = field.name.lowercased()
            guard !preserved.contains(name) else { continue }
            if replaced.insert(name).inserted { remove(field.name) }
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

    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}
