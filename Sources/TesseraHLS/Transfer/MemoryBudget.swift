import TesseraSupport

/// The bytes of resource bodies a job may hold in memory at once — bodies still arriving,
/// bodies waiting for their turn to be written, and the buffers kept for the next ones alike. A
/// body that cannot reserve its next chunk goes to a spill file instead, so a job's memory stays
/// bounded whatever the origin sends (an endless chunked body, sixteen oversized segments at
/// once).
///
/// It keeps the buffers of written bodies for the next ones (within the limit, each of at
/// least 64 KiB): a transfer of thousands of segments reuses a window's worth of memory instead
/// of faulting in fresh pages for every segment, or leaving them to the allocator's per-thread
/// arenas to hold. A kept buffer counts against the limit: a reservation that would not fit
/// beside them lets the largest go first, so bodies and kept buffers together stay within it (a
/// body handed a kept buffer larger than it asked for — up to four times — counts as its own
/// size).
///
/// A budget may draw on a `parent` shared by several jobs (the channels of one recorder): its
/// own limit is the job's share, the parent's the whole; a reservation must fit both, and the
/// kept buffers are the parent's, so one job's memory serves the next job's bodies.
package final class MemoryBudget: Sendable {
    private struct State {
        /// Bytes reserved by bodies.
        var used: UInt64 = 0
        /// Buffers kept for later bodies, and their capacity.
        var spares: [[UInt8]] = []
        var spareBytes: UInt64 = 0
        /// The fewest buffers kept at any moment since `releaseIdleSpares` last ran: that many
        /// sat unused all the while.
        var leastSpares = 0

        mutating func removeSpare(at index: Int) -> [UInt8] {
            let spare = spares.remove(at: index)
            spareBytes -= UInt64(spare.capacity)
            leastSpares = min(leastSpares, spares.count)
            return spare
        }

        /// The largest kept buffer, taken out.
        mutating func removeLargestSpare() -> [UInt8]? {
            spares.indices.max(by: { spares[$0].capacity < spares[$1].capacity }).map { removeSpare(at: $0) }
        }

        /// Reserves `count` bytes within `limit`, letting kept buffers go (the largest first)
        /// where they stand in the way, into `dropped` (to be freed outside the lock); false
        /// (nothing reserved) when the bodies' own bytes leave no room.
        mutating func reserve(_ count: UInt64, within limit: UInt64, dropping dropped: inout [[UInt8]]) -> Bool {
            guard count <= limit, used <= limit - count else { return false }
            while used + count + spareBytes > limit, let largest = removeLargestSpare() {
                dropped.append(largest)
            }
            used += count
            return true
        }
    }

    private let state = Lock(State())
    /// The most bytes held.
    package let limit: UInt64
    /// The budget shared with other jobs that every reservation must fit too, and that keeps the
    /// buffers; nil for a budget of its own.
    private let parent: MemoryBudget?

    package init(limit: UInt64, parent: MemoryBudget? = nil) {
        self.limit = limit
        self.parent = parent
    }

    /// Reserves `count` within this budget's own share (a budget with a parent keeps no buffers),
    /// then `inParent` in the parent; the share is given back when the parent refuses.
    private func reserveShare<T>(_ count: UInt64, _ parent: MemoryBudget, inParent: (MemoryBudget) -> T?) -> T? {
        let fits = state.withLock { state -> Bool in
            guard count <= limit, state.used <= limit - count else { return false }
            state.used += count
            return true
        }
        guard fits else { return nil }
        if let taken = inParent(parent) { return taken }
        state.withLock { $0.used -= count }
        return nil
    }

    /// Reserves `count` bytes and hands back an empty buffer of at least that many: a kept one
    /// when one fits (and is not more than four times that) — its room becomes the reservation's,
    /// taken in the same step, so a reservation never lets go of the buffer it is about to reuse
    /// — else a new one, other kept buffers let go where they stand in the way; nil (nothing
    /// reserved) when the bodies' own bytes leave no room.
    package func reserveBuffer(_ count: UInt64) -> [UInt8]? {
        if let parent { return reserveShare(count, parent) { $0.reserveBuffer(count) } }
        var dropped: [[UInt8]] = []
        let taken = state.withLock { state -> (fits: Bool, kept: [UInt8]?) in
            guard count <= limit, state.used <= limit - count else { return (false, nil) }
            let capacity = Int(count)
            var kept: [UInt8]?
            if let index = state.spares.indices.filter({ state.spares[$0].capacity >= capacity && state.spares[$0].capacity <= max(capacity, 1 << 16) * 4 })
                .min(by: { state.spares[$0].capacity < state.spares[$1].capacity }) {
                kept = state.removeSpare(at: index)
            }
            return (state.reserve(count, within: limit, dropping: &dropped), kept)
        }
        _ = consume dropped   // freed outside the lock
        guard taken.fits else { return nil }
        if let kept = taken.kept { return kept }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(Int(count))
        return fresh
    }

    /// Keeps the memory of `body` (emptied, its capacity kept) for a later body, when it is in
    /// memory, large enough, and the kept buffers stay within the limit. A spill file goes
    /// with the body.
    package func recycle(_ body: consuming ResourceBody) {
        if let parent { return parent.recycle(body) }
        guard var memory = (consume body).takeMemory(), memory.bytes.capacity >= 1 << 16 else { return }
        memory.bytes.removeAll(keepingCapacity: true)   // in place: the body was its only owner
        let capacity = UInt64(memory.bytes.capacity)
        // The body's reservation goes when `memory` does, just after: its bytes become the spare's.
        state.withLock { state in
            guard state.spareBytes + capacity <= limit else { return }
            state.spares.append(memory.bytes)
            state.spareBytes += capacity
        }
    }

    /// Lets go of the buffers kept for later bodies (the transfer has ended).
    package func releaseSpares() {
        let dropped = state.withLock { state -> [[UInt8]] in
            defer { (state.spares, state.spareBytes) = ([], 0) }
            return state.spares
        }
        _ = consume dropped   // freed outside the lock
    }

    /// Lets go of the kept buffers that no body took since the last call (the largest first):
    /// what a burst of bodies left behind goes once the bursts are smaller, instead of being kept
    /// for the life of the budget. For a budget that lives for days (a recorder's, called each
    /// minute): without it the kept buffers only ever grew — each stall of the disk, which makes
    /// more bodies wait at once, raised them to a new high that stayed resident.
    package func releaseIdleSpares() {
        if let parent { return parent.releaseIdleSpares() }
        let dropped = state.withLock { state -> [[UInt8]] in
            var dropped: [[UInt8]] = []
            for _ in 0..<state.leastSpares {
                guard let largest = state.removeLargestSpare() else { break }
                dropped.append(largest)
            }
            state.leastSpares = state.spares.count
            return dropped
        }
        _ = consume dropped   // freed outside the lock
    }

    /// Bytes reserved by bodies now.
    package var used: UInt64 { state.withLock { $0.used } }

    /// Bytes of the buffers kept for later bodies now.
    package var kept: UInt64 { state.withLock { $0.spareBytes } }

    /// Reserves `count` bytes, letting kept buffers go (the largest first) where they stand in
    /// the way; false (nothing reserved) when the bodies' own bytes leave no room.
    package func reserve(_ count: UInt64) -> Bool {
        if let parent { return reserveShare(count, parent) { $0.reserve(count) ? true : nil } != nil }
        var dropped: [[UInt8]] = []
        let fits = state.withLock { state in state.reserve(count, within: limit, dropping: &dropped) }
        _ = consume dropped   // freed outside the lock
        return fits
    }

    /// Returns `count` reserved bytes.
    package func release(_ count: UInt64) {
        state.withLock { state in
            precondition(count <= state.used, "released more than was reserved")
            state.used -= count
        }
        parent?.release(count)
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

    /// Reserves `more` bytes with an empty buffer of at least that many (`MemoryBudget.reserveBuffer`);
    /// nil when the budget is spent.
    package func buffer(reserving more: UInt64) -> [UInt8]? {
        guard let buffer = budget.reserveBuffer(more) else { return nil }
        count.withLock { $0 += more }
        return buffer
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
