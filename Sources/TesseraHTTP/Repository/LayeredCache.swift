/// A memory cache over an optional persistent one: a lookup answers from memory, else from the
/// persistent layer (the record then kept in memory too); a store and a removal go to both.
public struct LayeredCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The memory layer.
    public let memory: MemoryCache<Key, Value>
    /// The persistent layer, if any.
    public let persistent: (any PersistentCache<Key, Value>)?

    /// Layers `memory` over `persistent`.
    public init(memory: MemoryCache<Key, Value> = MemoryCache(), persistent: (any PersistentCache<Key, Value>)? = nil) {
        self.memory = memory
        self.persistent = persistent
    }

    /// The record of `key` from the first layer that has it.
    /// - Throws: the persistent layer's error.
    public func record(for key: Key) async throws(HTTPError) -> CacheRecord<Value>? {
        if let record = await memory.record(for: key) { return record }
        guard let record = try await persistent?.value(for: key) else { return nil }
        await memory.store(record, for: key)
        return record
    }

    /// Stores `record` in every layer.
    /// - Throws: the persistent layer's error (the memory layer has it already).
    public func store(_ record: CacheRecord<Value>, for key: Key) async throws(HTTPError) {
        await memory.store(record, for: key)
        try await persistent?.store(record, for: key)
    }

    /// Forgets `key` in every layer.
    /// - Throws: the persistent layer's error.
    public func remove(_ key: Key) async throws(HTTPError) {
        await memory.remove(key)
        try await persistent?.remove(key)
    }
}
