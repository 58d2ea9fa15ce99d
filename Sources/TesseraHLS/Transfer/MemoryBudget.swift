import TesseraSupport

/// The bytes of resource bodies a job may hold in memory at once — bodies still arriving and
/// bodies waiting for their turn to be written alike. A body that cannot reserve its next
/// chunk goes to a spill file instead, so a job's memory stays bounded whatever the origin
/// sends (an endless chunked body, sixteen oversized segments at once).
package final class MemoryBudget: Sendable {
    private let state: Lock<UInt64>
    /// The most bytes held.
    package let limit: UInt64

    package init(limit: UInt64) {
        self.limit = limit
        state = Lock(0)
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
