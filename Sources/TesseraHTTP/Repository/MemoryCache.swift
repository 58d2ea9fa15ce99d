/// A bounded in-memory cache: at most `maximumEntries` records, the least recently used going
/// first. The memory layer of a `LayeredCache`.
public actor MemoryCache<Key: Hashable & Sendable, Value: Sendable> {
    private var records: LRUTable<Key, CacheRecord<Value>>
    /// The most records kept.
    public nonisolated let maximumEntries: Int

    /// A cache of at most `maximumEntries` records (at least 1).
    public init(maximumEntries: Int = 256) {
        records = LRUTable(capacity: maximumEntries)
        self.maximumEntries = records.capacity
    }

    /// The record of `key`, or nil.
    public func record(for key: Key) -> CacheRecord<Value>? { records.value(for: key) }

    /// Keeps `record` for `key` (the least recently used one goes when full).
    public func store(_ record: CacheRecord<Value>, for key: Key) { records.store(record, for: key) }

    /// Forgets `key`.
    public func remove(_ key: Key) { records.remove(key) }

    /// Records kept now.
    public var count: Int { records.count }
}
