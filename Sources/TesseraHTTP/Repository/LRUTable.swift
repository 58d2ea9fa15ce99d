/// Values by key, at most `capacity` of them, the least recently used going when one more is
/// stored: what `MemoryCache` and `SingleFlightCache` keep. A pure value.
struct LRUTable<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, used: UInt64)] = [:]
    private var tick: UInt64 = 0
    /// The most values kept (at least 1).
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The value of `key`, marked used; nil when absent.
    mutating func value(for key: Key) -> Value? {
        guard let value = entries[key]?.value else { return nil }
        tick += 1
        entries[key]?.used = tick
        return value
    }

    /// Keeps `value` for `key`; over capacity, the least recently used goes.
    /// - Complexity: O(n) when one goes (n ≤ capacity).
    mutating func store(_ value: Value, for key: Key) {
        tick += 1
        entries[key] = (value, tick)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key { entries[oldest] = nil }
    }

    /// Forgets `key`.
    mutating func remove(_ key: Key) { entries[key] = nil }

    /// Forgets everything.
    mutating func removeAll() { entries = [:] }

    /// The keys kept.
    var keys: Dictionary<Key, (value: Value, used: UInt64)>.Keys { entries.keys }

    /// Values kept.
    var count: Int { entries.count }
}
