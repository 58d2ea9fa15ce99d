import Testing
@testable import TesseraHLS

@Suite("MemoryBudget")
struct MemoryBudgetTests {
    /// A body of `count` bytes held under `budget`, as a collector makes one.
    static func body(_ count: Int, in budget: MemoryBudget) -> ResourceBody {
        let reservation = MemoryReservation(budget)
        var bytes = reservation.buffer(reserving: UInt64(count)) ?? []
        #expect(bytes.capacity >= count)
        bytes.append(contentsOf: repeatElement(1, count: count))
        return .memory(bytes, reservation)
    }

    static func address(_ body: ResourceBody) -> UnsafeRawPointer? {
        guard case .memory(let bytes, _) = body else { return nil }
        return bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test("a written body's buffer is kept for the next one, and reused")
    func keeps() {
        let budget = MemoryBudget(limit: 4 << 20)
        budget.recycle(Self.body(1 << 20, in: budget))
        #expect(budget.used == 0)
        #expect(budget.kept >= 1 << 20)
        let reservation = MemoryReservation(budget)
        let reused = reservation.buffer(reserving: 1 << 20)
        #expect((reused?.capacity ?? 0) >= 1 << 20)
        #expect(budget.kept == 0 && budget.used == 1 << 20)
    }

    @Test("kept buffers that no body took between two calls go, the largest first; those a burst reuses stay")
    func idleSparesGo() {
        let budget = MemoryBudget(limit: 16 << 20)
        // A burst of four bodies leaves four buffers kept.
        let burst = (0..<4).map { Self.body((256 << 10) * ($0 + 1), in: budget) }
        for body in burst { budget.recycle(body) }
        budget.releaseIdleSpares()   // the first call starts the count
        #expect(budget.kept >= 2560 << 10)
        // Then bursts of two: two buffers are taken and given back each time, two sit idle.
        for _ in 0..<3 {
            let pair = [Self.body(256 << 10, in: budget), Self.body(512 << 10, in: budget)]
            for body in pair { budget.recycle(body) }
        }
        budget.releaseIdleSpares()
        #expect(budget.kept >= 768 << 10 && budget.kept < 1536 << 10, "the two reused kept, the two largest gone: \(budget.kept)")
        budget.releaseIdleSpares()
        #expect(budget.kept == 0, "nothing taken since: every kept buffer goes")
    }

    @Test("a reservation that needs a kept buffer's room takes that buffer, not a new one")
    func takesWhatItNeeds() {
        let budget = MemoryBudget(limit: 4 << 20)
        let first = Self.body(3 << 20, in: budget)
        let address = Self.address(first)
        budget.recycle(consume first)
        #expect(budget.used == 0 && budget.kept >= 3 << 20)
        // 3 MiB beside a 3 MiB kept buffer would pass 4 MiB: the kept one is the one handed over.
        let reservation = MemoryReservation(budget)
        let buffer = reservation.buffer(reserving: 3 << 20)
        #expect(buffer?.withUnsafeBytes { $0.baseAddress } == address)
        #expect(budget.kept == 0 && budget.used == 3 << 20)
    }

    @Test("kept buffers count against the limit: a reservation that needs their room lets them go, largest first")
    func keptWithinLimit() {
        let budget = MemoryBudget(limit: 4 << 20)
        let large = Self.body(1 << 20, in: budget)
        let small = Self.body(512 << 10, in: budget)
        budget.recycle(consume large)
        budget.recycle(consume small)
        let kept = budget.kept
        #expect(kept >= (1 << 20) + (512 << 10))
        // 2.75 MiB fits beside the small buffer but not beside both.
        let reservation = MemoryReservation(budget)
        #expect(reservation.grow(by: (2 << 20) + (768 << 10)))
        #expect(budget.used + budget.kept <= budget.limit)
        #expect(budget.kept > 0 && budget.kept < 1 << 20)
        // What the bodies themselves hold is never given up for a kept buffer.
        #expect(!reservation.grow(by: 2 << 20))
        reservation.releaseAll()
        #expect(budget.used == 0)
    }

    @Test("kept buffers stay within the limit")
    func withinTheLimit() {
        let budget = MemoryBudget(limit: 4 << 20)
        for _ in 0..<4 { budget.recycle(Self.body(1 << 20, in: budget)) }
        #expect(budget.kept <= 4 << 20)
        budget.releaseSpares()
        #expect(budget.kept == 0)
    }

    @Test("budgets that share a parent: each within its own share, all within the parent's limit, a written body's buffer reused by another")
    func shares() {
        let shared = MemoryBudget(limit: 3 << 20)
        let first = MemoryBudget(limit: 2 << 20, parent: shared)
        let second = MemoryBudget(limit: 2 << 20, parent: shared)
        #expect(!first.reserve(3 << 20), "over its share")
        #expect(shared.used == 0 && first.used == 0, "a refusal reserves nothing")
        let held = MemoryReservation(first)
        #expect(held.grow(by: 2 << 20))
        #expect(!first.reserve(1), "its share is spent")
        #expect(!second.reserve(2 << 20), "the parent has 1 MiB left, whatever the second's share")
        #expect(second.used == 0 && shared.used == 2 << 20, "the refused share is given back")
        #expect(second.reserve(1 << 20))
        second.release(1 << 20)
        held.releaseAll()
        #expect(shared.used == 0 && first.used == 0 && second.used == 0)
        // A body of the first channel is kept by the parent and handed to the second.
        let body = Self.body(1 << 20, in: first)
        let address = Self.address(body)
        first.recycle(consume body)
        #expect(shared.kept >= 1 << 20 && first.kept == 0)
        let reused = MemoryReservation(second)
        let buffer = reused.buffer(reserving: 1 << 20)
        #expect(buffer?.withUnsafeBytes { $0.baseAddress } == address)
        #expect(second.used == 1 << 20 && shared.used == 1 << 20 && shared.kept == 0)
    }
}
