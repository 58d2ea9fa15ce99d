import Synchronization
import Testing
import TesseraHTTP

@Suite("SingleFlightCache")
struct SingleFlightCacheTests {
    typealias Gated = RequestCoalescerTests.GatedOperation

    /// A clock the test moves.
    final class Now: Sendable {
        let value = Mutex<Duration>(.zero)
        func advance(_ by: Duration) { value.withLock { $0 += by } }
        var reading: @Sendable () -> Duration { { [self] in value.withLock { $0 } } }
    }

    private func waitForWaiters(_ cache: SingleFlightCache<String, String>, _ key: String, _ count: Int) async {
        while await cache.waiterCount(for: key) < count { await Task.yield() }
    }

    @Test("concurrent callers share one load; later ones are answered from memory")
    func oneLoad() async throws {
        let cache = SingleFlightCache<String, String>()
        let load = Gated()
        async let a = cache.value(for: "k") { () async throws(HTTPError) in try await load() }
        async let b = cache.value(for: "k") { () async throws(HTTPError) in try await load() }
        await waitForWaiters(cache, "k", 2)
        load.opener.yield(.success("v"))
        let (first, second) = (try await a, try await b)
        #expect(first == "v" && second == "v")
        #expect(try await cache.value(for: "k") { () async throws(HTTPError) in try await load() } == "v")
        #expect(load.runs.load(ordering: .relaxed) == 1)
    }

    @Test("an error is not kept: the next ask loads again")
    func errorsNotCached() async throws {
        let cache = SingleFlightCache<String, String>()
        let load = Gated()
        load.opener.yield(.failure(HTTPError(.connect, code: HTTPError.Code("refused"), "refused")))
        await #expect(throws: HTTPError.self) { _ = try await cache.value(for: "k") { () async throws(HTTPError) in try await load() } }
        #expect(await cache.cachedValue(for: "k") == nil)
        load.opener.yield(.success("second"))
        #expect(try await cache.value(for: "k") { () async throws(HTTPError) in try await load() } == "second")
        #expect(load.runs.load(ordering: .relaxed) == 2)
    }

    @Test("a value older than maximumAge is loaded again")
    func maximumAge() async throws {
        let now = Now()
        let cache = SingleFlightCache<String, String>(maximumAge: .seconds(10), now: now.reading)
        let load = Gated()
        load.opener.yield(.success("old"))
        _ = try await cache.value(for: "k") { () async throws(HTTPError) in try await load() }
        now.advance(.seconds(9))
        #expect(await cache.cachedValue(for: "k") == "old")
        now.advance(.seconds(1))
        #expect(await cache.cachedValue(for: "k") == nil)
        load.opener.yield(.success("new"))
        #expect(try await cache.value(for: "k") { () async throws(HTTPError) in try await load() } == "new")
    }

    @Test("at most maximumEntries values: the least recently used goes first")
    func bounded() async throws {
        let cache = SingleFlightCache<String, String>(maximumEntries: 2)
        for key in ["a", "b"] { _ = try await cache.value(for: key) { () async throws(HTTPError) in key.uppercased() } }
        #expect(await cache.cachedValue(for: "a") == "A")   // a is now the most recently used
        _ = try await cache.value(for: "c") { () async throws(HTTPError) in "C" }
        #expect(await cache.count == 2)
        let kept = (await cache.cachedValue(for: "a"), await cache.cachedValue(for: "b"), await cache.cachedValue(for: "c"))
        #expect(kept.0 == "A" && kept.1 == nil && kept.2 == "C", "\(kept)")
    }

    @Test("an ask after invalidate does not join the load begun before: it loads afresh, and only its value is kept")
    func askAfterInvalidate() async throws {
        let cache = SingleFlightCache<String, String>()
        let old = Gated(), new = Gated()
        async let a = cache.value(for: "k") { () async throws(HTTPError) in try await old() }
        await waitForWaiters(cache, "k", 1)
        await cache.invalidate("k")
        async let b = cache.value(for: "k") { () async throws(HTTPError) in try await new() }
        await waitForWaiters(cache, "k", 1)
        new.opener.yield(.success("fresh"))
        old.opener.yield(.success("stale"))
        let (first, second) = (try await a, try await b)
        #expect(first == "stale" && second == "fresh")
        #expect(await cache.cachedValue(for: "k") == "fresh")
        #expect(old.runs.load(ordering: .relaxed) == 1 && new.runs.load(ordering: .relaxed) == 1)
    }

    @Test("invalidate during a load: its callers get the value, the cache does not keep it")
    func invalidateInFlight() async throws {
        let cache = SingleFlightCache<String, String>()
        let load = Gated()
        async let a = cache.value(for: "k") { () async throws(HTTPError) in try await load() }
        await waitForWaiters(cache, "k", 1)
        await cache.invalidate("k")
        load.opener.yield(.success("stale"))
        let answered = try await a
        #expect(answered == "stale")
        #expect(await cache.cachedValue(for: "k") == nil)
    }
}
