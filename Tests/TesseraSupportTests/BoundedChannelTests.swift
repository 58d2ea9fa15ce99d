import Testing
@testable import TesseraSupport

@Suite("BoundedChannel: the one channel — order, capacity, coalescing, back-pressure, cancellation")
struct BoundedChannelTests {
    /// A tagged element: `key` says what coalesces, `lifecycle` what a lossy channel keeps.
    struct Item: Sendable, Equatable {
        var key: String
        var value: Int
        var lifecycle = false
    }

    /// Folds an item into a waiting one of the same key unless either is a lifecycle item (then it follows).
    static let latestPerKey: @Sendable (inout Item, Item) -> ChannelMerge = { waiting, new in
        guard waiting.key == new.key else { return .unrelated }
        guard !waiting.lifecycle, !new.lifecycle else { return .follows }
        waiting = new
        return .merged
    }

    static func drain<Element>(_ channel: BoundedChannel<Element>) async -> [Element] {
        channel.finish()
        var out: [Element] = []
        for await element in channel { out.append(element) }
        return out
    }

    @Test("the buffer folds a new element into the newest related one, never past one it must follow")
    func coalescing() {
        var buffer = ChannelBuffer(policy: ChannelPolicy<Item>(capacity: 10, overflow: .wait, coalesce: Self.latestPerKey))
        #expect(buffer.offer(Item(key: "a", value: 1)) == .queued)
        #expect(buffer.offer(Item(key: "b", value: 1)) == .queued)
        #expect(buffer.offer(Item(key: "a", value: 2)) == .merged, "past the unrelated b, into a's waiting item")
        #expect(buffer.offer(Item(key: "a", value: 3, lifecycle: true)) == .queued)
        #expect(buffer.offer(Item(key: "a", value: 4)) == .queued, "it follows a's lifecycle item, not folded before it")
        var taken: [Item] = []
        while let item = buffer.take() { taken.append(item) }
        #expect(taken.map(\.value) == [2, 1, 3, 4] && taken.map(\.key) == ["a", "b", "a", "a"])
        #expect(buffer.count == 0)
    }

    @Test("a lossy buffer drops the oldest droppable element, then a droppable new one, and never a kept one")
    func dropOldest() {
        var buffer = ChannelBuffer(policy: ChannelPolicy<Item>(capacity: 2, overflow: .dropOldest { !$0.lifecycle }))
        #expect(buffer.offer(Item(key: "a", value: 1, lifecycle: true)) == .queued)
        #expect(buffer.offer(Item(key: "a", value: 2)) == .queued)
        #expect(buffer.offer(Item(key: "a", value: 3, lifecycle: true)) == .queued, "the transient 2 made room")
        #expect(buffer.offer(Item(key: "a", value: 4)) == .dropped, "nothing droppable waits: the new transient one goes")
        #expect(buffer.offer(Item(key: "a", value: 5, lifecycle: true)) == .queued, "a kept element goes past the capacity")
        #expect(buffer.dropped == 2 && buffer.count == 3)
        var taken: [Int] = []
        while let item = buffer.take() { taken.append(item.value) }
        #expect(taken == [1, 3, 5])
    }

    @Test("a long queue taken and refilled keeps its order across compactions")
    func order() {
        var buffer = ChannelBuffer(policy: ChannelPolicy<Int>(capacity: 1000, overflow: .wait))
        var next = 0, expected = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 20) {
                #expect(buffer.offer(next) == .queued)
                next += 1
            }
            for _ in 0..<(round % 5 + 15) {
                #expect(buffer.take() == expected)
                expected += 1
            }
        }
        while let value = buffer.take() {
            #expect(value == expected)
            expected += 1
        }
        #expect(expected == next)
    }

    @Test("latest: a slow consumer gets one element holding every change since it last looked; a waiting one gets each")
    func latest() async {
        let channel = BoundedChannel<[Int]>(.latest { $0 + $1 })
        channel.offer([1])
        channel.offer([2])
        channel.offer([3])
        #expect(channel.count == 1)
        #expect(await channel.next() == [1, 2, 3])
        let consumer = Task { await channel.next() }
        channel.offer([4])
        #expect(await consumer.value == [4])
        #expect(await Self.drain(channel).isEmpty)
    }

    @Test("ordered events: progress coalesced in place per key, lifecycle kept, transient dropped when behind, counted")
    func orderedEvents() async {
        let channel = BoundedChannel(ChannelPolicy<Item>(capacity: 3, overflow: .dropOldest { !$0.lifecycle }, coalesce: Self.latestPerKey))
        channel.offer(Item(key: "a", value: 0, lifecycle: true))
        channel.offer(Item(key: "a", value: 1))
        channel.offer(Item(key: "b", value: 1))
        channel.offer(Item(key: "a", value: 2))          // folded into a's progress 1
        channel.offer(Item(key: "c", value: 0, lifecycle: true))   // full: a's progress goes
        let values = await Self.drain(channel).map { "\($0.key)\($0.value)" }
        #expect(values == ["a0", "b1", "c0"])
        #expect(channel.dropped == 1)
    }

    @Test("back-pressure: offer refuses at capacity, send waits until an element is taken, and order holds")
    func backPressure() async {
        let channel = BoundedChannel<Int>(.backPressure(capacity: 2))
        #expect(channel.offer(1) && channel.offer(2))
        #expect(!channel.offer(99), "full: refused, not queued")
        let producer = Task { await channel.send(3) }
        #expect(channel.count == 2)
        #expect(await channel.next() == 1)
        #expect(await producer.value, "taken once there was room")
        #expect(await Self.drain(channel) == [2, 3])
    }

    @Test("a producer waiting for room returns false when cancelled, or when the channel finishes; nothing is added after finish")
    func producerEnds() async {
        let channel = BoundedChannel<Int>(.backPressure(capacity: 1))
        channel.offer(1)
        let cancelled = Task { await channel.send(2) }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        let finished = Task { await channel.send(3) }
        channel.finish()
        #expect(await finished.value == false)
        #expect(!channel.offer(4) && channel.isFinished)
        #expect(await Self.drain(channel) == [1], "what waited is still drained")
    }

    @Test("a cancelled consumer stops waiting; the channel goes on for others")
    func cancelledConsumer() async {
        let channel = BoundedChannel<Int>(.backPressure(capacity: 4))
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in channel { count += 1 }
            return count
        }
        consumer.cancel()
        #expect(await consumer.value == 0)
        channel.offer(7)
        #expect(await Self.drain(channel) == [7])
    }

    @Test("several consumers share the elements, each taken once, and all end at finish")
    func consumers() async {
        let channel = BoundedChannel<Int>(.backPressure(capacity: 8))
        let consumers = (0..<3).map { _ in
            Task { () -> [Int] in
                var taken: [Int] = []
                for await value in channel { taken.append(value) }
                return taken
            }
        }
        for value in 0..<100 { _ = await channel.send(value) }
        channel.finish()
        var all: [Int] = []
        for consumer in consumers {
            let taken = await consumer.value
            #expect(taken == taken.sorted(), "each consumer sees the order")
            all += taken
        }
        #expect(all.sorted() == Array(0..<100))
    }

    @Test("signal: lossless past the capacity; hasRoom false arms onRoom, called once the channel drains to half")
    func signal() async {
        let channel = BoundedChannel<Int>(ChannelPolicy(capacity: 4, overflow: .signal))
        let calls = Lock(0)
        channel.setOnRoom { calls.withLock { $0 += 1 } }
        for value in 0..<4 { channel.offer(value) }
        #expect(!channel.hasRoom() && channel.hasRoom(beyond: -1))
        channel.offer(4)
        #expect(channel.count == 5, "never refused nor dropped")
        #expect(await channel.next() == 0 && calls.withLock { $0 } == 0)
        #expect(await channel.next() == 1 && calls.withLock { $0 } == 0)
        #expect(await channel.next() == 2 && calls.withLock { $0 } == 1, "two left of four: room")
        #expect(await channel.next() == 3 && calls.withLock { $0 } == 1, "once per drain")
        #expect(await Self.drain(channel) == [4])
    }
}

extension BoundedChannelTests {
    @Test("a channel read to its end regardless: a cancelled reader still gets every element and the end")
    func readToEnd() async {
        let channel = BoundedChannel<Int>(ChannelPolicy(capacity: 4, overflow: .signal, endsOnCancellation: false))
        let reader = Task { () -> [Int] in
            withUnsafeCurrentTask { $0?.cancel() }
            var seen: [Int] = []
            for await value in channel { seen.append(value) }
            return seen
        }
        channel.offer(1)
        channel.offer(2)
        channel.finish()
        #expect(await reader.value == [1, 2])
    }
}
