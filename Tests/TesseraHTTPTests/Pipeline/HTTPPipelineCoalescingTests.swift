import Foundation
import Synchronization
import Testing
import TesseraHTTPTesting
@testable import TesseraHTTP

@Suite("HTTPPipeline coalescing")
struct HTTPPipelineCoalescingTests {
    /// A transport whose answers wait until the test opens the gate, counting sends.
    final class GatedTransport: HTTPTransport {
        let sends = Atomic<Int>(0)
        let inner = MockTransport()
        let gate: AsyncStream<Void>
        let opener: AsyncStream<Void>.Continuation
        init() { (gate, opener) = AsyncStream.makeStream(of: Void.self) }

        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            sends.add(1, ordering: .relaxed)
            for await _ in gate { return try await inner.send(request) }
            throw HTTPError(.cancelled, code: .cancelled, "gate closed")
        }
    }

    let url = URL(string: "https://cdn.example/key.bin")!

    private func pipeline(_ transport: GatedTransport, coalescing: Bool) -> HTTPPipeline<ImmediateClock> {
        var configuration = HTTPPipelineConfiguration()
        configuration.coalescesIdenticalGETs = coalescing
        return HTTPPipeline(transport: transport, configuration: configuration, clock: ImmediateClock())
    }

    @Test("identical concurrent GETs share one fetch and its bytes")
    func shared() async throws {
        let transport = GatedTransport()
        transport.inner.stub(url, .ok([1, 2, 3]))
        let pipeline = pipeline(transport, coalescing: true)
        let request = HTTPRequest(url: url)
        async let a = pipeline.data(request, upTo: 100)
        async let b = pipeline.data(request, upTo: 100)
        while await pipeline.coalescedCallers(request, limit: 100) < 2 { await Task.yield() }
        transport.opener.yield()
        let (first, second) = try await (a, b)
        #expect(first.body == [1, 2, 3] && second.body == [1, 2, 3])
        let sends = transport.sends.load(ordering: .relaxed)
        #expect(sends == 1)
    }

    @Test("requests that differ in headers or method are not shared; coalescing is opt-in")
    func notShared() async throws {
        let transport = GatedTransport()
        transport.inner.stub(url, .ok([1]))
        let pipeline = pipeline(transport, coalescing: true)
        var other = HTTPRequest(url: url)
        other.headers.add("Accept", "application/octet-stream")
        var post = HTTPRequest(url: url)
        post.method = .post
        #expect(await pipeline.coalescedCallers(post, limit: 10) == 0)
        transport.opener.yield()
        transport.opener.yield()
        _ = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        _ = try await pipeline.data(other, upTo: 10)
        let sends = transport.sends.load(ordering: .relaxed)
        #expect(sends == 2)

        let plain = GatedTransport()
        plain.inner.stub(url, .ok([1]))
        let uncoalesced = self.pipeline(plain, coalescing: false)
        #expect(await uncoalesced.coalescedCallers(HTTPRequest(url: url), limit: 10) == 0)
    }
}
