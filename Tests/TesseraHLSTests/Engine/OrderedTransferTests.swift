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

    @Test("each size class is estimated from its own finished items: 100-byte video beside 1-byte audio under 250 bytes holds two videos at most")
    func sizeClasses() async throws {
        let videos = Window(), all = Window()
        var seen: [Int] = []
        try await OrderedTransfer.run(ListInput(0..<40), parallelism: 8, maximumBytes: 250, measure: { $0 % 2 == 0 ? 100 : 1 },
                                      sizeClass: { $0 % 2 }, work: { index throws(HLSError) in
                                          if index % 2 == 0 { videos.start() }
                                          all.start()
                                          for _ in 0..<(40 - index) { await Task.yield() }
                                          return index
                                      }) { value throws(HLSError) in
            seen.append(value)
            if value % 2 == 0 { videos.consume() }
            all.consume()
        }
        #expect(seen == Array(0..<40))
        // One mean over both (50 bytes) would let four videos in at once.
        #expect(videos.most <= 2)
        // The audio items are not held back by the videos' weight.
        #expect(all.most >= 3)
    }

    @Test("the first of a class runs without others of its class: videos after a 1-byte audio item are not estimated at 1 byte")
    func firstOfAClass() async throws {
        let videos = Window()
        try await OrderedTransfer.run(ListInput(0..<20), parallelism: 8, maximumBytes: 250, measure: { $0 == 0 ? 1 : 100 },
                                      sizeClass: { $0 == 0 ? 1 : 0 }, work: { index throws(HLSError) in
                                          if index > 0 { videos.start() }
                                          for _ in 0..<(20 - index) { await Task.yield() }
                                          return index
                                      }) { value throws(HLSError) in
            if value > 0 { videos.consume() }
        }
        #expect(videos.most <= 2)
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

    @Test("an input that waits (a live playlist not grown yet) is awaited while finished items are consumed",
          .timeLimit(.minutes(1)))
    func waitingInput() async throws {
        let (input, feed) = AsyncStream<Int>.makeStream()
        let (consumed, notify) = AsyncStream<Int>.makeStream()
        let transfer = Task { () async -> [Int]? in
            var seen: [Int] = []
            do throws(HLSError) {
                try await OrderedTransfer.run(WaitingInput(stream: input), parallelism: 4, work: { $0 * 10 }) { value throws(HLSError) in
                    seen.append(value)
                    notify.yield(value)
                }
            } catch { return nil }
            notify.finish()
            return seen
        }
        for index in 0..<3 { feed.yield(index) }
        var notifications = consumed.makeAsyncIterator()
        // All three are consumed while the input has nothing more: the transfer does not wait for it.
        for expected in [0, 10, 20] { #expect(await notifications.next() == expected) }
        feed.yield(3)
        feed.finish()
        #expect(await notifications.next() == 30)
        #expect(await transfer.value == [0, 10, 20, 30])
    }

    @Test("an input that has its elements ready is taken from at once, never awaited in a child task")
    func immediateInput() async throws {
        let awaited = Lock(0)
        var seen: [Int] = []
        try await OrderedTransfer.run(ReadyInput(count: 20, awaited: awaited), parallelism: 6, work: { $0 }) { value throws(HLSError) in
            seen.append(value)
        }
        #expect(seen == Array(0..<20))
        #expect(awaited.withLock { $0 } == 0)
    }
}

/// An open-ended input that yields what the test feeds it and waits in between (not an
/// `ImmediateIterator`: the transfer must await it in a child task).
private struct WaitingInput: AsyncSequence {
    typealias Element = Int
    typealias Failure = HLSError
    let stream: AsyncStream<Int>

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = HLSError
        var base: AsyncStream<Int>.Iterator
        mutating func next() async throws(HLSError) -> Int? { await base.next() }
        mutating func next(isolation actor: isolated (any Actor)?) async throws(HLSError) -> Int? { await base.next(isolation: actor) }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
}

/// A finite input whose elements are always ready; counts the times it is awaited instead.
private struct ReadyInput: AsyncSequence {
    typealias Element = Int
    typealias Failure = HLSError
    let count: Int
    let awaited: Lock<Int>

    struct AsyncIterator: ImmediateIterator {
        typealias Failure = HLSError
        var next = 0
        let count: Int
        let awaited: Lock<Int>
        mutating func next() async throws(HLSError) -> Int? {
            awaited.withLock { $0 += 1 }
            return take()
        }
        mutating func nextImmediately() throws(HLSError) -> ImmediatePull<Int> { take().map(ImmediatePull.element) ?? .end }
        private mutating func take() -> Int? {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, awaited: awaited) }
}
