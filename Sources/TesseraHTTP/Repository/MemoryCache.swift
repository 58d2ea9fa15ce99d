/// A bounded in-memory cache: at most `maximumEntries` records, the least recently used going
/// first. The memory layer of a `LayeredCache`.
public actor MemoryCache<Key: Hashable & Sendable, Value: Sendable> {
    private var records: [Key: (record: CacheRecord<Value>, used: UInt64)] = [:]
    private var tick: UInt64 = 0
    /// The most records kept.
    public let maximumEntries: Int

    /// A cache of at most `maximumEntries` records (at least 1).
    public init(maximumEntries: Int = 256) { self.maximumEntries = max(1, maximumEntries) }

    /// The record of `key`, or nil.
    public func record(for key: Key) -> CacheRecord<Value>? {
        guard let record = records[key]?.record else { return nil }
        tick += 1
        records[key]?.used = tick
        return record
    }

    /// Keeps `record` for `key` (the least recently used one goes when full).
    public func store(_ record: CacheRecord<Value>, for key: Key) {
        tick += 1
        records[key] = (record, tick)
        if records.count > maximumEntries, let oldest = records.min(by: { $0.value.used < $1.value.used })?.key { records[oldest] = nil }
    }

    /// Forgets `key`.
    public func remove(_ key: Key) { records[key] = nil }

    /// Records kept now.
    public var count: Int { records.count }
}
