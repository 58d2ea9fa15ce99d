import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraSupport

@Suite("OrderedTransfer")
struct OrderedTransferTests {
    /// Items started and not yet consumed, and the most there ever were.
    final class Window: Sendable {
        private let state = Lock<(now: Int, most: Int)>((0, 0))
        func start() { state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func consume() { state.withLock { $0.now -= 1 } }
        var most: Int { state.withLock { $0.most } }
    }

    /// Work that finishes out of order: item i yields (count - i) times first.
    static func work(_ window: Window, count: Int) -> @Sendable (Int) async throws(HLSError) -> Int {
        { index throws(HLSError) in
            window.start()
            for _ in 0..<(count - index) { await Task.yield() }
            return index
        }
    }

    @Test("results arrive in order however the work finishes; at most `parallelism` are held")
    func order() async throws {
        let window = Window()
        var seen: [Int] = []
        try await OrderedTransfer.run(ListInput(0..<40), parallelism: 6, work: Self.work(window, count: 40)) { value throws(HLSError) in
            seen.append(value)
            window.consume()
        }
        #expect(seen == Array(0..<40))
        #expect(window.most <= 6)
    }

    @Test("the byte window holds back new work: 10-byte items under a 25-byte budget run two at a time; an oversize item runs alone")
    func bytes() async throws {
        let window = Window()
        var seen: [Int] = []
        try await OrderedTransfer.run(ListInput(0..<20), parallelism: 6, maximumBytes: 25, size: { $0 == 7 ? 100 : 10 },
                                      work: Self.work(window, count: 20)) { value throws(HLSError) in
            seen.append(value)
            window.consume()
        }
        #expect(seen == Array(0..<20))
        #expect(window.most <= 2)
    }

    @Test("unknown sizes are estimated from the finished items")
    func estimated() async throws {
        let window = Window()
        try await OrderedTransfer.run(ListInput(0..<20), parallelism: 6, maximumBytes: 25, measure: { _ in 10 },
                                      work: Self.work(window, count: 20)) { _ throws(HLSError) in window.consume() }
        // The first runs alone (nothing is known); then 10-byte estimates allow two at a time.
        #expect(window.most <= 2)
    }

    @Test("the first failure cancels the rest and is thrown")
    func failure() async {
        do throws(HLSError) {
            try await OrderedTransfer.run(ListInput(0..<10), parallelism: 3, work: { index throws(HLSError) in
                if index == 4 { throw HLSError(.fetchFailed, "item 4") }
                return index
            }) { _ throws(HLSError) in }
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .fetchFailed && error.message == "item 4")
        }
    }
}
