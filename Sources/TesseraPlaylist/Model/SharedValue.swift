/// An immutable value shared by reference, compared and hashed by value. Keeps large values that
/// many elements share (a segment's map) out of every element's inline storage.
final class SharedValue<Value: Hashable & Sendable>: Hashable, Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (lhs: SharedValue, rhs: SharedValue) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
