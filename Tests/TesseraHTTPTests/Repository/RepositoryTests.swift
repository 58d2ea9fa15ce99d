import Foundation
import Synchronization
import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("Repository over a LayeredCache")
struct RepositoryTests {
    /// A persistent layer in memory that counts its reads (a process restart: a new memory layer over it).
    actor Store: PersistentCache {
        var records: [String: CacheRecord<String>] = [:]
        var reads = 0
        func value(for key: String) async throws(HTTPError) -> CacheRecord<String>? {
            reads += 1
            return records[key]
        }
        func store(_ record: CacheRecord<String>, for key: String) async throws(HTTPError) { records[key] = record }
        func remove(_ key: String) async throws(HTTPError) { records[key] = nil }
    }

    /// A wall clock the test moves, and a load that counts its calls and answers `<key>#<n>`.
    final class World: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let loads = Atomic<Int>(0)
        let failing = Atomic<Bool>(false)
        var clock: @Sendable () -> Date { { [self] in now.withLock { $0 } } }
        func advance(_ seconds: Double) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
        func load(_ key: String) async throws(HTTPError) -> String {
            let count = loads.add(1, ordering: .relaxed).newValue
            if failing.load(ordering: .relaxed) { throw HTTPError(.connect, code: HTTPError.Code("refused"), "refused") }
            return "\(key)#\(count)"
        }
    }

    @Test("the policies: cache else load, reload, cache only (cache-miss), maximum age")
    func policies() async throws {
        let world = World()
        let repository = Repository<String, String>(now: world.clock) { key throws(HTTPError) in try await world.load(key) }
        await #expect(throws: HTTPError.self) { _ = try await repository.value(for: "a", policy: .returnCacheDontLoad) }
        #expect(try await repository.value(for: "a") == "a#1")
        #expect(try await repository.value(for: "a") == "a#1")
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad) == "a#1")
        #expect(try await repository.value(for: "a", policy: .reloadIgnoringCache) == "a#2")
        world.advance(30)
        #expect(try await repository.value(for: "a", policy: .maximumAge(.seconds(60))) == "a#2")
        world.advance(31)
        #expect(try await repository.value(for: "a", policy: .maximumAge(.seconds(60))) == "a#3")
        try await repository.invalidate("a")
        #expect(try await repository.value(for: "a") == "a#4")
    }

    @Test("invalidate during a load: the load answers its caller and is not kept; the next ask loads again")
    func invalidateDuringLoad() async throws {
        let gate = RequestCoalescerTests.GatedOperation()
        let repository = Repository<String, String> { _ throws(HTTPError) in try await gate() }
        async let first = repository.value(for: "k")
        while gate.runs.load(ordering: .relaxed) == 0 { await Task.yield() }
        try await repository.invalidate("k")
        gate.opener.yield(.success("stale"))
        let answered = try await first
        #expect(answered == "stale")
        await #expect(throws: HTTPError.self) { _ = try await repository.value(for: "k", policy: .returnCacheDontLoad) }
        gate.opener.yield(.success("fresh"))
        #expect(try await repository.value(for: "k") == "fresh")
    }

    @Test("a failed load is thrown and not kept; the cached value stays for the next ask")
    func errorsNotKept() async throws {
        let world = World()
        let repository = Repository<String, String>(now: world.clock) { key throws(HTTPError) in try await world.load(key) }
        _ = try await repository.value(for: "a")
        world.failing.store(true, ordering: .relaxed)
        await #expect(throws: HTTPError.self) { _ = try await repository.value(for: "a", policy: .reloadIgnoringCache) }
        #expect(try await repository.value(for: "a") == "a#1")
    }

    @Test("the persistent layer answers a new memory layer (a restart) and is read once; ages count across it")
    func persistentLayer() async throws {
        let world = World()
        let store = Store()
        let first = Repository<String, String>(cache: LayeredCache(persistent: store), now: world.clock) { key throws(HTTPError) in
            try await world.load(key)
        }
        #expect(try await first.value(for: "k") == "k#1")
        let second = Repository<String, String>(cache: LayeredCache(persistent: store), now: world.clock) { key throws(HTTPError) in
            try await world.load(key)
        }
        #expect(try await second.value(for: "k") == "k#1")
        #expect(try await second.value(for: "k") == "k#1")
        #expect(await store.reads == 2, "once by the first run's miss, once by the restart: then memory")
        world.advance(120)
        #expect(try await second.value(for: "k", policy: .maximumAge(.seconds(60))) == "k#2")
        #expect(await store.records["k"]?.value == "k#2")
    }

    @Test("on the disk cache: a record outlives its process (a new cache over the folder reads it), removal forgets it")
    func diskLayer() async throws {
        let folder = try TemporaryDirectory()
        let world = World()
        let first = Repository<String, String>(cache: LayeredCache(persistent: try DiskPersistentCache<String>(directory: folder.url)),
                                               now: world.clock) { key throws(HTTPError) in try await world.load(key) }
        #expect(try await first.value(for: "a key/with ?odd& chars") == "a key/with ?odd& chars#1")
        let reopened = try DiskPersistentCache<String>(directory: folder.url)
        let record = try #require(try await reopened.value(for: "a key/with ?odd& chars"))
        #expect(record.value == "a key/with ?odd& chars#1" && record.storedAt == world.clock())
        #expect(try await reopened.value(for: "another") == nil)
        try await reopened.remove("a key/with ?odd& chars")
        #expect(try await DiskPersistentCache<String>(directory: folder.url).value(for: "a key/with ?odd& chars") == nil)
        let otherType = try DiskPersistentCache<Int>(directory: folder.url, namespace: "numbers")
        try await otherType.store(CacheRecord(value: 7, storedAt: world.clock()), for: "n")
        #expect(try await DiskPersistentCache<[Int]>(directory: folder.url, namespace: "numbers").value(for: "n") == nil, "a record of another type reads as absent")
    }

    @Test("the memory layer keeps at most its bound, the least recently used going")
    func memoryBound() async {
        let memory = MemoryCache<String, Int>(maximumEntries: 2)
        let stamp = Date(timeIntervalSince1970: 0)
        await memory.store(CacheRecord(value: 1, storedAt: stamp), for: "a")
        await memory.store(CacheRecord(value: 2, storedAt: stamp), for: "b")
        _ = await memory.record(for: "a")
        await memory.store(CacheRecord(value: 3, storedAt: stamp), for: "c")
        let kept = (await memory.record(for: "a")?.value, await memory.record(for: "b")?.value, await memory.record(for: "c")?.value)
        #expect(kept.0 == 1 && kept.1 == nil && kept.2 == 3)
    }
}
