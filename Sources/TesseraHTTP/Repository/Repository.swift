#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Values loaded from a remote source through a `LayeredCache`, by a policy per ask, each load
/// shared by the concurrent asks for its key (`RequestCoalescer`) and kept on success (errors
/// never are, nor a load its key was invalidated during).
public actor Repository<Key: Hashable & Sendable, Value: Sendable> {
    /// How an ask uses the cache.
    public enum Policy: Sendable, Equatable {
        /// The cached value if any, else a load.
        case returnCacheElseLoad
        /// Always a load (the result cached).
        case reloadIgnoringCache
        /// The cached value, or `cache-miss`: never a load.
        case returnCacheDontLoad
        /// The cached value when younger than this, else a load.
        case maximumAge(Duration)
    }

    private let cache: LayeredCache<Key, Value>
    private let load: @Sendable (Key) async throws(HTTPError) -> Value
    private let now: @Sendable () -> Date
    private var loads = LoadGenerations<Key>()
    private let coalescer = RequestCoalescer<FlightKey<Key>, Value>()

    /// A repository loading with `load` through `cache`; `now` is the wall clock records are
    /// stamped and aged on.
    public init(cache: LayeredCache<Key, Value> = LayeredCache(), now: @escaping @Sendable () -> Date = { Date() },
                load: @escaping @Sendable (Key) async throws(HTTPError) -> Value) {
        self.cache = cache
        self.load = load
        self.now = now
    }

    /// The value of `key` by `policy`.
    /// - Throws: the load's error; `cache-miss` under `.returnCacheDontLoad` with nothing cached;
    ///   the persistent layer's errors; `cancelled` when this caller's task is.
    public func value(for key: Key, policy: Policy = .returnCacheElseLoad) async throws(HTTPError) -> Value {
        switch policy {
        case .reloadIgnoringCache: break
        case .returnCacheElseLoad:
            if let record = try await cache.record(for: key) { return record.value }
        case .returnCacheDontLoad:
            if let record = try await cache.record(for: key) { return record.value }
            throw HTTPError(.invalidRequest, code: .cacheMiss, "Nothing is cached for this key, and the policy does not load.")
        case .maximumAge(let age):
            if let record = try await cache.record(for: key), Duration.seconds(now().timeIntervalSince(record.storedAt)) < age {
                return record.value
            }
        }
        let load = self.load
        let flight = loads.begin(key)
        defer { loads.end(flight) }
        // Kept inside the flight, before it ends: an ask arriving after the flight finds the value
        // (kept after it, a second ask could miss both and load again).
        return try await coalescer.run(flight) { () async throws(HTTPError) in
            let value = try await load(key)
            try await self.keep(value, for: key, flight: flight)
            return value
        }
    }

    /// Keeps a loaded value unless its key was invalidated while it loaded.
    private func keep(_ value: Value, for key: Key, flight: FlightKey<Key>) async throws(HTTPError) {
        if loads.isCurrent(flight) { try await cache.store(CacheRecord(value: value, storedAt: now()), for: key) }
    }

    /// Forgets `key` in every layer of the cache; a load in flight for it answers its callers
    /// without being kept, and a later ask loads afresh.
    /// - Throws: the persistent layer's error.
    public func invalidate(_ key: Key) async throws(HTTPError) {
        loads.invalidate(key)
        try await cache.remove(key)
    }
}
