import Foundation
import Synchronization
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

@Suite("RemoteDataCache over an HTTPClient")
struct RemoteDataCacheTests {
    let base = URL(string: "https://cdn.example/")!
    var thumb: URL { URL(string: "https://cdn.example/t/42.jpg")! }

    private func gets(_ transport: MockTransport, _ url: URL) -> Int { transport.requests.filter { $0.url == url }.count }

    @Test("one GET shared by concurrent asks; later asks from memory; a restart answered from disk")
    func layers() async throws {
        let folder = try TemporaryDirectory()
        let transport = MockTransport()
        let body = [UInt8]((0..<5000).map { UInt8(truncatingIfNeeded: $0) })
        transport.stub(thumb, .ok(body))
        let client = try HTTPClient.stub(baseURL: base, transport: transport)
        let cache = try RemoteDataCache(client: client, directory: folder.url)
        async let a = cache.data(for: thumb)
        async let b = cache.data(for: thumb)
        let (first, second) = try await (a, b)
        #expect(first == Data(body) && second == Data(body))
        #expect(try await cache.data(for: thumb) == Data(body))
        #expect(gets(transport, thumb) == 1)
        // A new process: an empty memory layer over the same folder.
        let restarted = try RemoteDataCache(client: client, directory: folder.url)
        #expect(try await restarted.data(for: thumb, policy: .returnCacheDontLoad) == Data(body))
        #expect(gets(transport, thumb) == 1)
        try await restarted.invalidate(thumb)
        await #expect(throws: HTTPError.self) { try await restarted.data(for: thumb, policy: .returnCacheDontLoad) }
        #expect(try await restarted.data(for: thumb) == Data(body))
        #expect(gets(transport, thumb) == 2)
    }

    @Test("a failed GET is not kept, and an over-large body fails instead of filling memory")
    func failures() async throws {
        let transport = MockTransport(unstubbed: .status(404))
        let big = URL(string: "https://cdn.example/big.bin")!
        transport.stub(big, .ok([UInt8](repeating: 1, count: 2000)))
        let client = try HTTPClient.stub(baseURL: base, transport: transport)
        let cache = try RemoteDataCache(client: client, maximumItemBytes: 1000)
        await #expect { try await cache.data(for: thumb) } throws: { ($0 as? HTTPError)?.status == 404 }
        await #expect { try await cache.data(for: thumb) } throws: { ($0 as? HTTPError)?.status == 404 }
        #expect(gets(transport, thumb) == 2)
        await #expect { try await cache.data(for: big) } throws: { ($0 as? HTTPError)?.code == .bodyTooLarge }
    }

    @Test("maximumAge reloads an old body; the clock is the caller's")
    func maximumAge() async throws {
        let transport = MockTransport()
        transport.stub(thumb, .ok([1]))
        transport.stub(thumb, .ok([2]))
        let client = try HTTPClient.stub(baseURL: base, transport: transport)
        let now = TestWallClock()
        let cache = try RemoteDataCache(client: client, now: now.reading)
        #expect(try await cache.data(for: thumb) == Data([1]))
        now.advance(30)
        #expect(try await cache.data(for: thumb, policy: .maximumAge(.seconds(60))) == Data([1]))
        now.advance(60)
        #expect(try await cache.data(for: thumb, policy: .maximumAge(.seconds(60))) == Data([2]))
    }
}

/// A wall clock the test moves.
final class TestWallClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var reading: @Sendable () -> Date { { [self] in now.withLock { $0 } } }
    func advance(_ seconds: Double) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
