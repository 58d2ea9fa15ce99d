import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("Direct delivery: a body copied by the transfer straight into the reader's memory")
struct CurlDirectDeliveryTests {
    /// "intact", or where `bytes` first differ from `expected` and how (for a readable failure).
    static func compare(_ bytes: [UInt8], _ expected: [UInt8]) -> String {
        if bytes == expected { return "intact" }
        let first = (0..<min(bytes.count, expected.count)).first { bytes[$0] != expected[$0] } ?? min(bytes.count, expected.count)
        var shift = "no shift found"
        for k in 1..<300_000 where first + k + 64 <= expected.count && first + 64 <= bytes.count {
            if Array(bytes[first..<first + 64]) == Array(expected[first + k..<first + k + 64]) { shift = "bytes skip \(k) of the expected"; break }
            if first + k + 64 <= bytes.count, Array(bytes[first + k..<first + k + 64]) == Array(expected[first..<first + 64]) { shift = "bytes repeat \(k)"; break }
        }
        return "\(bytes.count) bytes of \(expected.count), first difference at \(first): \(shift)"
    }

    /// Reads `path` by delivering into a destination of `capacity` bytes `step` at a time (a yield
    /// between steps now and then), then the rest as chunks. Steps under 64 KiB are taken through
    /// the first 512 KiB (dozens of curl chunks and watermark cycles), 64 KiB ones after: a
    /// million one-byte deliveries a run took 40 s in a loaded suite run, and lost its connection
    /// there once.
    private static func read(_ harness: TransportHarness, _ path: String, capacity: Int, step: Int, seed: UInt64,
                             adjust: (inout HTTPRequest) -> Void = { _ in }) async throws -> (bytes: [UInt8], last: HTTPBodyDelivery) {
        var generator = SeededGenerator(seed: seed)
        let response = try await harness.transport.send(harness.request(path, adjust))
        let destination = HTTPBodyDestination(capacity: capacity)
        var delivery = HTTPBodyDelivery.paused
        while delivery == .paused, destination.count < capacity {
            destination.pauseAt = min(capacity, destination.count + (destination.count < 512 << 10 ? step : max(step, 64 << 10)))
            delivery = try await response.body.deliver(into: destination)
            if Bool.random(using: &generator) { await Task.yield() }
        }
        var bytes = destination.takeBytes()
        if let leftover = destination.leftover { bytes += leftover }
        if delivery != .ended {
            for try await chunk in response.body { bytes += chunk }
        }
        return (bytes, delivery)
    }

    @Test("a 4 MiB body delivered a step at a time through small watermarks arrives intact, in order", arguments: [1, 7, 64 << 10, 1 << 20])
    func stepped(step: Int) async throws {
        let harness = try TransportHarness()
        for seed in 0..<6 {
            let (bytes, last) = try await Self.read(harness, "/big.bin", capacity: 4 << 20, step: step, seed: UInt64(seed)) {
                $0.limits.bufferHighWatermark = 32 << 10
                $0.limits.bufferLowWatermark = 8 << 10
            }
            #expect(Self.compare(bytes, TransportHarness.big) == "intact")
            #expect(last == .ended || last == .paused)
        }
    }

    @Test("a destination smaller than the body takes what fits, the rest comes as chunks, all in order", arguments: [1, 100_000, (4 << 20) - 1])
    func smallerThanBody(capacity: Int) async throws {
        let harness = try TransportHarness()
        let (bytes, last) = try await Self.read(harness, "/big.bin", capacity: capacity, step: 256 << 10, seed: 9)
        #expect(Self.compare(bytes, TransportHarness.big) == "intact")
        #expect(last != .ended)
    }

    @Test("eight concurrent transfers delivered directly all arrive intact")
    func concurrent() async throws {
        let harness = try TransportHarness()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for seed in 0..<8 {
                group.addTask {
                    Self.compare(try await Self.read(harness, "/big.bin", capacity: 4 << 20, step: 1 << 20, seed: UInt64(seed)).bytes, TransportHarness.big) == "intact"
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test("an empty body ends at once; a small one in one delivery")
    func small() async throws {
        let harness = try TransportHarness()
        #expect(try await Self.read(harness, "/empty.bin", capacity: 1 << 20, step: 1 << 20, seed: 1) == ([], .ended))
        #expect(try await Self.read(harness, "/small.bin", capacity: 1 << 20, step: 1 << 20, seed: 1) == (TransportHarness.small, .ended))
    }

    @Test("a reader waiting in deliver when the body stalls is woken by cancellation with cancelled; the transport goes on")
    func cancelledWhileWaiting() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.stall(afterBytes: 100_000), path: "/big.bin")
        let delivered = AsyncStream<Void>.makeStream()
        let task = Task { () async throws(HTTPError) -> HTTPBodyDelivery in
            let response = try await harness.transport.send(harness.request("/big.bin"))
            let destination = HTTPBodyDestination(capacity: 4 << 20)
            destination.pauseAt = 1
            _ = try await response.body.deliver(into: destination)
            delivered.continuation.yield()
            destination.pauseAt = 4 << 20
            return try await response.body.deliver(into: destination)
        }
        for await _ in delivered.stream { break }
        task.cancel()
        switch await task.result {
        case .success(let delivery): Issue.record("deliver returned \(delivery) despite the stall and the cancellation")
        case .failure(let error): #expect((error as? HTTPError)?.category == .cancelled)
        }
        #expect(try await harness.fetch("/small.bin").1 == TransportHarness.small)
    }
}
