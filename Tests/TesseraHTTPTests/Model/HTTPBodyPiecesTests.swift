import Testing
@testable import TesseraHTTP
import TesseraSupport
import TesseraTestSupport

@Suite("HTTPBody.forEachPiece: a body handed on a piece at a time, in order, whole")
struct HTTPBodyPiecesTests {
    /// Chunks of many sizes, one of them larger than any piece, each byte numbered.
    private static func chunks(seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        var next: UInt8 = 0
        return [1, 5000, 70_000, 3 << 20, 16_384, 0, 999_999, 1 << 20, 12].shuffled(using: &generator).map { size in
            (0..<size).map { _ in
                next &+= 1
                return next
            }
        }
    }

    @Test("a source without direct delivery: every byte once, in order; a piece is at most the maximum or one whole chunk", arguments: [0, 1, 2])
    func defaultSource(seed: UInt64) async throws {
        let chunks = Self.chunks(seed: seed)
        let body = HTTPBody(source: CannedChunks(chunks))
        var pieces: [[UInt8]] = []
        let total = try await body.forEachPiece(upTo: 1 << 20) { pieces.append($0) }
        #expect(pieces.flatMap { $0 } == chunks.flatMap { $0 })
        #expect(total == Int64(chunks.reduce(0) { $0 + $1.count }))
        #expect(pieces.allSatisfy { $0.count <= 1 << 20 || chunks.contains($0) })
        #expect(!pieces.contains { $0.isEmpty })
    }

    @Test("an empty body hands nothing on")
    func empty() async throws {
        let body = HTTPBody(source: CannedChunks([]))
        var calls = 0
        #expect(try await body.forEachPiece(upTo: 1 << 20) { _ in calls += 1 } == 0)
        #expect(calls == 0)
    }

    @Test("what the handler throws ends the read, and the body is abandoned when it goes")
    func handlerThrows() async {
        let source = CannedChunks(Self.chunks(seed: 3))
        var body: HTTPBody? = HTTPBody(source: source)
        let failure = HTTPError(.file, code: .destinationUnwritable, "disk full")
        await #expect(throws: HTTPError.self) {
            try await body?.forEachPiece(upTo: 1 << 20) { _ throws(HTTPError) in throw failure }
        }
        body = nil
        #expect(source.abandoned.withLock { $0 })
    }

    @Test("a real transfer: 4 MiB through small watermarks arrives intact, in pieces no larger than the maximum", arguments: [16 << 10, 1 << 20])
    func curl(maximum: Int) async throws {
        let harness = try TransportHarness()
        let response = try await harness.transport.send(harness.request("/big.bin") {
            $0.limits.bufferHighWatermark = 64 << 10
            $0.limits.bufferLowWatermark = 16 << 10
        })
        var bytes: [UInt8] = []
        var largest = 0
        let total = try await response.body.forEachPiece(upTo: maximum) { piece in
            bytes += piece
            largest = max(largest, piece.count)
        }
        #expect(CurlDirectDeliveryTests.compare(bytes, TransportHarness.big) == "intact")
        #expect(total == Int64(TransportHarness.big.count))
        #expect(largest <= maximum)
    }

    @Test("a transfer cut short: every byte that arrived is handed on before the error", arguments: [16 << 10, 1 << 20])
    func cutShort(maximum: Int) async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.truncate(afterBytes: 300_000), path: "/big.bin")
        let response = try await harness.transport.send(harness.request("/big.bin"))
        var bytes: [UInt8] = []
        let error = await #expect(throws: HTTPError.self) {
            try await response.body.forEachPiece(upTo: maximum) { bytes += $0 }
        }
        #expect(error?.category == .connectionLost)
        #expect(bytes.count == 300_000 && bytes == Array(TransportHarness.big.prefix(300_000)))
    }

    @Test("a piece doubles while it fills fast and halves while it fills slowly, within its bounds")
    func steps() {
        #expect(HTTPBody.nextStep(after: 64 << 10, filledIn: .milliseconds(10), largest: 1 << 20) == 128 << 10)
        #expect(HTTPBody.nextStep(after: 1 << 20, filledIn: .milliseconds(10), largest: 1 << 20) == 1 << 20)
        #expect(HTTPBody.nextStep(after: 64 << 10, filledIn: .milliseconds(300), largest: 1 << 20) == 64 << 10)
        #expect(HTTPBody.nextStep(after: 64 << 10, filledIn: .seconds(2), largest: 1 << 20) == 32 << 10)
        #expect(HTTPBody.nextStep(after: 16 << 10, filledIn: .seconds(2), largest: 1 << 20) == 16 << 10)
    }
}
