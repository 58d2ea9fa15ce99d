import TesseraSupport

/// The bytes of resource bodies a job may hold in memory at once — bodies still arriving and
/// bodies waiting for their turn to be written alike. A body that cannot reserve its next
/// chunk goes to a spill file instead, so a job's memory stays bounded whatever the origin
/// sends (an endless chunked body, sixteen oversized segments at once).
///
/// It also keeps the buffers of written bodies for the next ones (at most half the limit, each
/// of at least 64 KiB): a transfer of thousands of segments reuses a window's worth of memory
/// instead of faulting in fresh pages for every segment, or leaving them to the allocator's
/// per-thread arenas to hold.
package final class MemoryBudget: Sendable {
    private let state: Lock<UInt64>
    private let spares = Lock<[[UInt8]]>([])
    /// The most bytes held.
    package let limit: UInt64

    package init(limit: UInt64) {
        self.limit = limit
        state = Lock(0)
    }

    /// An empty buffer of at least `capacity` bytes: a kept one when one fits (and is not more
    /// than four times that), else a new one.
    package func buffer(capacity: Int) -> [UInt8] {
        let kept = spares.withLock { spares -> [UInt8]? in
            guard let index = spares.indices.filter({ spares[$0].capacity >= capacity && spares[$0].capacity <= max(capacity, 1 << 16) * 4 })
                .min(by: { spares[$0].capacity < spares[$1].capacity }) else { return nil }
            return spares.remove(at: index)
        }
        if let kept { return kept }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(capacity)
        return fresh
    }

    /// Keeps the memory of `body` (emptied, its capacity kept) for a later body, when it is in
    /// memory, large enough, and the kept buffers stay within half the limit. A spill file goes
    /// with the body.
    package func recycle(_ body: consuming ResourceBody) {
        guard var memory = (consume body).takeMemory(), memory.bytes.capacity >= 1 << 16 else { return }
        memory.bytes.removeAll(keepingCapacity: true)   // in place: the body was its only owner
        spares.withLock { spares in
            let kept = spares.reduce(0) { $0 + UInt64($1.capacity) }
            guard kept + UInt64(memory.bytes.capacity) <= limit / 2 else { return }
            spares.append(memory.bytes)
        }
    }

    /// Lets go of the buffers kept for later bodies (the transfer has ended).
    package func releaseSpares() {
        spares.withLock { $0.removeAll() }
    }

    /// Bytes held now.
    package var used: UInt64 { state.withLock { $0 } }

    /// Reserves `count` bytes; false (nothing reserved) when they do not fit.
    package func reserve(_ count: UInt64) -> Bool {
        state.withLock { used in
            guard count <= limit, used <= limit - count else { return false }
            used += count
            return true
        }
    }

    /// Returns `count` reserved bytes.
    package func release(_ count: UInt64) {
        state.withLock { used in
            precondition(count <= used, "released more than was reserved")
            used -= count
        }
    }
}

/// Bytes reserved from a `MemoryBudget`, returned when the reservation goes away (the body was
/// written, spilled or dropped with a failed job).
package final class MemoryReservation: Sendable {
    private let budget: MemoryBudget
    private let count: Lock<UInt64>

    package init(_ budget: MemoryBudget) {
        self.budget = budget
        count = Lock(0)
    }

    /// Reserves `more` bytes; false when the budget is spent.
    package func grow(by more: UInt64) -> Bool {
        guard budget.reserve(more) else { return false }
        count.withLock { $0 += more }
        return true
    }

    /// Returns everything reserved so far.
    package func releaseAll() {
        let held = count.withLock { held -> UInt64 in
            defer { held = 0 }
            return held
        }
        if held > 0 { budget.release(held) }
    }

    deinit { releaseAll() }
}
