import Testing
import TesseraHTTP
import TesseraSupport

@Suite("HTTPBody.deliver(into:) for a source without direct delivery")
struct HTTPBodyDeliveryTests {
    private static let chunks: [[UInt8]] = [Array(repeating: 1, count: 10), Array(repeating: 2, count: 10), Array(repeating: 3, count: 10)]

    @Test("chunks that fit are taken; the one that does not is the leftover, the rest comes after it")
    func leftover() async throws {
        let body = HTTPBody(source: CannedChunks(Self.chunks))
        let destination = HTTPBodyDestination(capacity: 15)
        #expect(try await body.deliver(into: destination) == .full)
        #expect(destination.bytes == Self.chunks[0])
        #expect(destination.leftover == Self.chunks[1])
        var rest: [UInt8] = []
        for try await chunk in body { rest += chunk }
        #expect(rest == Self.chunks[2])
    }

    @Test("it pauses at pauseAt, resumes when raised, and ends with every byte")
    func pauses() async throws {
        let body = HTTPBody(source: CannedChunks(Self.chunks))
        let destination = HTTPBodyDestination(capacity: 100)
        destination.pauseAt = 5
        #expect(try await body.deliver(into: destination) == .paused)
        #expect(destination.count == 10)
        destination.pauseAt = 100
        #expect(try await body.deliver(into: destination) == .ended)
        #expect(destination.bytes == Self.chunks.flatMap { $0 })
        #expect(destination.leftover == nil)
    }
}
