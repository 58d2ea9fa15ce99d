import Dispatch
import Testing
@testable import TesseraSupport

@Suite("Blocking lanes on a bounded pool: each lane's work in order, lanes side by side, never more threads than the limit")
struct BlockingPoolTests {
    struct Failure: Error, Equatable {}

    @Test("twelve lanes of fifty pieces each on a pool of three: every lane's pieces run in their order, on at most three threads")
    func orderAndBound() async {
        let pool = BlockingPool(limit: 3)
        let seen = Lock<[Int: [Int]]>([:])
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<12 {
                group.addTask {
                    let blocking = BlockingLane(label: "test.\(lane)", pool: pool)
                    for piece in 0..<50 {
                        await blocking.run { seen.withLock { $0[lane, default: []].append(piece) } }
                    }
                }
            }
        }
        #expect(seen.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<12).map { ($0, Array(0..<50)) }))
        #expect(pool.threads <= 3 && pool.threads >= 1)
    }

    @Test("a lane blocked in its work holds one thread: another lane's work runs meanwhile, and the blocked one finishes once released")
    func blockedLane() async throws {
        let pool = BlockingPool(limit: 2)
        let release = DispatchSemaphore(value: 0)
        let stuck = BlockingLane(label: "test.stuck", pool: pool)
        let free = BlockingLane(label: "test.free", pool: pool)
        let blocked = Task { await stuck.run { release.wait(); return 1 } }
        #expect(await free.run { 2 } == 2)
        release.signal()
        #expect(await blocked.value == 1)
    }

    @Test("with every thread blocked the next piece waits for one, and runs once a thread is free")
    func everyThreadBlocked() async {
        let pool = BlockingPool(limit: 1)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let first = BlockingLane(label: "test.first", pool: pool)
        let second = BlockingLane(label: "test.second", pool: pool)
        let blocked = Task { await first.run { started.signal(); release.wait() } }
        await withCheckedContinuation { continuation in DispatchQueue.global().async { started.wait(); continuation.resume() } }
        let waiting = Task { await second.run { "ran" } }
        release.signal()
        await blocked.value
        #expect(await waiting.value == "ran")
        #expect(pool.threads == 1)
    }

    @Test("what the work throws reaches the caller, and the lane goes on")
    func failure() async throws {
        let lane = BlockingLane(label: "test.failure", pool: BlockingPool(limit: 1))
        await #expect(throws: Failure()) { try await lane.run { () throws(Failure) in throw Failure() } }
        #expect(await lane.run { 3 } == 3)
    }
}
