/// A bounded cache of loaded values in which concurrent callers asking for a key that is not
/// cached share one load (`RequestCoalescer`): N simultaneous asks cost one fetch, and later ones
/// are answered from memory while the value is younger than `maximumAge`. Errors are never
/// cached — the next ask loads again. At most `maximumEntries` values are kept, the least
/// recently used going first. `invalidate` forgets a key at once: a load in flight for it then
/// answers its callers without being kept, and a later ask loads afresh (`LoadGenerations`).
public actor SingleFlightCache<Key: Hashable & Sendable, Value: Sendable> {
    private struct Entry {
        let value: Value
        let storedAt: Duration
    }

    /// The most values kept.
    public let maximumEntries: Int
    /// How long a value is answered from memory; nil: until evicted or invalidated.
    public let maximumAge: Duration?
    private let now: @Sendable () -> Duration
    private var entries: LRUTable<Key, Entry>
    private var loads = LoadGenerations<Key>()
    private let coalescer = RequestCoalescer<FlightKey<Key>, Value>()

    /// A cache of at most `maximumEntries` values (at least 1), each answered for `maximumAge`;
    /// `now` is the clock ages are measured on (monotonic time by default).
    public init(maximumEntries: Int = 256, maximumAge: Duration? = nil, now: @escaping @Sendable () -> Duration = MonotonicTime.now) {
        entries = LRUTable(capacity: maximumEntries)
        self.maximumEntries = entries.capacity
        self.maximumAge = maximumAge
        self.now = now
    }

    /// The value of `key`: the cached one while fresh, else the result of `load` — shared with
    /// every caller asking meanwhile — kept when it succeeded.
    /// - Throws: `load`'s error (not kept); `cancelled` when this caller's task is cancelled
    ///   while it waits (the load goes on for the others).
    public func value(for key: Key, load: @escaping @Sendable () async throws(HTTPError) -> Value) async throws(HTTPError) -> Value {
        if let cached = fresh(key) { return cached }
        let flight = loads.begin(key)
        defer { loads.end(flight) }
        // Kept inside the flight, before it ends: an ask arriving after the flight finds the value
        // (kept after it, a second ask could miss both and load again).
        return try await coalescer.run(flight) { () async throws(HTTPError) in
            let value = try await load()
            await self.keep(value, for: key, flight: flight)
            return value
        }
    }

    /// Keeps a loaded value unless its key was forgotten while it loaded.
    private func keep(_ value: Value, for key: Key, flight: FlightKey<Key>) {
        if loads.isCurrent(flight) { entries.store(Entry(value: value, storedAt: now()), for: key) }
    }

    /// The cached value of `key` while fresh, without loading.
    public func cachedValue(for key: Key) -> Value? { fresh(key) }

    /// Forgets `key`: the next ask loads it; a load in flight is not kept.
    public func invalidate(_ key: Key) {
        entries.remove(key)
        loads.invalidate(key)
    }

    /// Forgets everything (loads in flight are not kept).
    public func removeAll() {
        entries.removeAll()
        loads.invalidateAll()
    }

    /// Values kept now.
    public var count: Int { entries.count }

    /// Callers waiting on `key`'s load (0 when none is in flight).
    public func waiterCount(for key: Key) async -> Int {
        await coalescer.waiterCount(for: loads.current(key))
    }

    private func fresh(_ key: Key) -> Value? {
        guard let entry = entries.value(for: key) else { return nil }
        if let maximumAge, now() - entry.storedAt >= maximumAge {
            entries.remove(key)
            return nil
        }
        return entry.value
    }
}
