#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cache that outlives the process, under a `LayeredCache`'s memory: values by key with the
/// wall-clock time they were stored (ages across runs are measured on it).
public protocol PersistentCache<Key, Value>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable

    /// The stored value of `key` and when it was stored, or nil.
    func value(for key: Key) async throws(HTTPError) -> CacheRecord<Value>?
    /// Stores `record` for `key`.
    func store(_ record: CacheRecord<Value>, for key: Key) async throws(HTTPError)
    /// Forgets `key`.
    func remove(_ key: Key) async throws(HTTPError)
}

/// A cached value and when it was stored.
public struct CacheRecord<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// When it was stored (wall clock).
    public let storedAt: Date

    /// `value`, stored at `storedAt`.
    public init(value: Value, storedAt: Date) {
        self.value = value
        self.storedAt = storedAt
    }
}
