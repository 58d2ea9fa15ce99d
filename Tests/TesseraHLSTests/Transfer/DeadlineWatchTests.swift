import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraSupport
import TesseraTestSupport

@Suite("DeadlineWatch: one watcher for every resource in flight, on the job's clock")
struct DeadlineWatchTests {
    /// A watch on a manual clock that records the tags it cancels, and the task running it.
    final class Harness: Sendable {
        let clock = ManualClock()
        let cancelled = Lock<[String]>([])
        let watch: DeadlineWatch
        init(deadline: ResourceDeadline? = ResourceDeadline()) {
            let cancelled = self.cancelled
            watch = DeadlineWatch(deadline: deadline, clock: clock, cancel: { tag in cancelled.withLock { $0.append(tag) } })
        }
    }

    @Test("nothing sleeps on the clock while no resource is in flight; a resource past its deadline is cancelled by its tag",
          .timeLimit(.minutes(1)))
    func expiry() async throws {
        let harness = Harness()
        let watching = Task { await harness.watch.watch() }
        for _ in 0..<100 { await Task.yield() }
        #expect(harness.clock.sleeperCount == 0, "an idle watch waits without a timer")
        let timer = try #require(harness.watch.begin(expected: 16 << 10))    // 30 s + 1 s
        #expect(timer.limit == .seconds(31))
        await harness.clock.waitForSleepers()
        harness.clock.advance(by: .seconds(30))
        await harness.clock.waitForSleepers()
        #expect(harness.cancelled.withLock { $0 }.isEmpty, "not yet past 31 s")
        harness.clock.advance(by: .seconds(1))
        while harness.cancelled.withLock({ $0 }).isEmpty { await Task.yield() }
        #expect(harness.cancelled.withLock { $0 } == [timer.tag])
        #expect(timer.end(), "the processor learns that the deadline, not the origin, ended it")
        watching.cancel()
        await watching.value
    }

    @Test("a resource that ends in time is never cancelled; an unknown size gets the headroom until its head names a length",
          .timeLimit(.minutes(1)))
    func inTimeAndHeads() async throws {
        let harness = Harness()
        let watching = Task { await harness.watch.watch() }
        let quick = try #require(harness.watch.begin(expected: nil))
        #expect(quick.limit == .seconds(30))
        quick.headArrived(HTTPResponseHead(status: 200, headers: ["Content-Length": "\(10 << 20)"],
                                           url: URL(string: "http://origin.test/a.ts")!))
        #expect(quick.limit == .seconds(30 + 640))
        await harness.clock.waitForSleepers()
        #expect(!quick.end())
        harness.clock.advance(by: .seconds(3600))
        for _ in 0..<100 { await Task.yield() }
        #expect(harness.cancelled.withLock { $0 }.isEmpty)
        watching.cancel()
        await watching.value
    }

    @Test("without a deadline rule there is no timer and no watch")
    func noDeadline() async {
        let harness = Harness(deadline: nil)
        #expect(harness.watch.begin(expected: 1000) == nil)
        await harness.watch.watch()    // returns at once
        #expect(harness.clock.sleeperCount == 0)
    }
}
