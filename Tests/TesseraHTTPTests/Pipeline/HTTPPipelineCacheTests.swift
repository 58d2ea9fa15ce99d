import Foundation
import Synchronization
import Testing
import TesseraHTTPTesting
@testable import TesseraHTTP

@Suite("HTTPPipeline cache")
struct HTTPPipelineCacheTests {
    let url = URL(string: "https://cdn.example/master.m3u8")!

    /// Wall-clock seconds the test sets.
    final class WallClock: Sendable {
        let seconds = Atomic<Int64>(1_000)
        func set(_ value: Int64) { seconds.store(value, ordering: .relaxed) }
    }

    /// A pipeline with a cache, reading time from `wall`.
    private func pipeline(_ mock: MockTransport, _ wall: WallClock) -> HTTPPipeline<ImmediateClock> {
        var configuration = HTTPPipelineConfiguration()
        configuration.cache = MemoryResponseCache()
        return HTTPPipeline(transport: mock, configuration: configuration, clock: ImmediateClock(),
                            wallClock: { wall.seconds.load(ordering: .relaxed) })
    }

    @Test("a fresh response is served from the cache without a request")
    func fresh() async throws {
        let mock = MockTransport()
        mock.stub(url, .ok([1, 2], headers: ["Cache-Control": "max-age=60"]))
        let now = WallClock()
        let pipeline = pipeline(mock, now)
        #expect(try await pipeline.data(HTTPRequest(url: url), upTo: 10).body == [1, 2])
        now.set(1_059)
        #expect(try await pipeline.data(HTTPRequest(url: url), upTo: 10).body == [1, 2])
        #expect(mock.requests.count == 1)
    }

    @Test("a stale response is revalidated with its ETag; a matching 304 serves the stored body and refreshes it")
    func revalidation() async throws {
        let mock = MockTransport()
        mock.stub(url, .ok([1, 2], headers: ["Cache-Control": "max-age=10", "ETag": "\"v1\""]))
        mock.stub(url, .response(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=100"], chunks: []))
        let now = WallClock()
        let pipeline = pipeline(mock, now)
        _ = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        now.set(1_020)
        let revalidated = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        #expect(revalidated.head.status == 200 && revalidated.body == [1, 2])
        #expect(mock.requests.last?.headers["If-None-Match"] == "\"v1\"")
        now.set(1_100)
        _ = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        #expect(mock.requests.count == 2)
    }

    @Test("no-store responses are not kept; a successful POST invalidates the URL")
    func noStoreAndInvalidation() async throws {
        let mock = MockTransport()
        mock.stub(url, .ok([1], headers: ["Cache-Control": "max-age=60"]))
        let now = WallClock()
        let pipeline = pipeline(mock, now)
        _ = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        var post = HTTPRequest(url: url)
        post.method = .post
        _ = try await pipeline.data(post, upTo: 10)
        _ = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        #expect(mock.requests.count == 3)

        let other = URL(string: "https://cdn.example/live.m3u8")!
        mock.stub(other, .ok([2], headers: ["Cache-Control": "no-store, max-age=60"]))
        _ = try await pipeline.data(HTTPRequest(url: other), upTo: 10)
        _ = try await pipeline.data(HTTPRequest(url: other), upTo: 10)
        #expect(mock.requests.count == 5)
    }
}

