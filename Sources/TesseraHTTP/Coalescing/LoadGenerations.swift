/// A shared load's key: the cache key and the generation it began in.
struct FlightKey<Key: Hashable & Sendable>: Hashable, Sendable {
    let key: Key
    let generation: UInt64
}

/// Which loads of a cache may still be kept: each key with asks waiting on a load has a
/// generation that invalidating the key bumps, so a load begun before is answered but not kept,
/// and an ask after it starts a load of its own (its `FlightKey` differs). Held only while loads
/// are in flight: bounded by them. A pure value (`SingleFlightCache`, `Repository`).
struct LoadGenerations<Key: Hashable & Sendable> {
    private var loading: [Key: (asks: Int, generation: UInt64)] = [:]

    /// The flight an ask for `key` joins now.
    func current(_ key: Key) -> FlightKey<Key> { FlightKey(key: key, generation: loading[key]?.generation ?? 0) }

    /// An ask for `key` begins waiting: its flight.
    mutating func begin(_ key: Key) -> FlightKey<Key> {
        let flight = current(key)
        loading[key] = (asks: (loading[key]?.asks ?? 0) + 1, generation: flight.generation)
        return flight
    }

    /// Whether `flight`'s value may be kept: nothing invalidated its key since it began.
    func isCurrent(_ flight: FlightKey<Key>) -> Bool { loading[flight.key]?.generation == flight.generation }

    /// An ask of `flight` is done waiting.
    mutating func end(_ flight: FlightKey<Key>) {
        guard let state = loading[flight.key] else { return }
        loading[flight.key] = state.asks > 1 ? (state.asks - 1, state.generation) : nil
    }

    /// Loads of `key` in flight are no longer kept.
    mutating func invalidate(_ key: Key) { loading[key]?.generation += 1 }

    /// No load in flight is kept.
    mutating func invalidateAll() { for key in Array(loading.keys) { loading[key]?.generation += 1 } }
}
