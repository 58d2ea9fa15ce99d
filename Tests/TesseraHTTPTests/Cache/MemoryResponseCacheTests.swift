import Testing
@testable import TesseraHTTP

@Suite("MemoryResponseCache")
struct MemoryResponseCacheTests {
    private func entry(_ bytes: Int, vary: HTTPHeaders = [:], request: HTTPHeaders = [:]) -> CachedResponse {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=60"]
        return CachedResponse(status: 200, headers: headers, body: Array(repeating: 1, count: bytes),
                              freshness: CacheFreshness(status: 200, headers: headers, requestTime: 0, responseTime: 0),
                              vary: CacheVary(response: vary, request: request))
    }

    @Test("lookups honour Vary; a same-key store replaces; invalidation removes every variant")
    func variants() {
        let cache = MemoryResponseCache()
        cache.store("u", entry(1, vary: ["Vary": "Accept-Language"], request: ["Accept-Language": "en"]))
        cache.store("u", entry(2, vary: ["Vary": "Accept-Language"], request: ["Accept-Language": "fr"]))
        #expect(cache.lookup("u", requestHeaders: ["Accept-Language": "fr"])?.body.count == 2)
        #expect(cache.lookup("u", requestHeaders: ["Accept-Language": "de"]) == nil)
        cache.store("u", entry(3, vary: ["Vary": "Accept-Language"], request: ["Accept-Language": "fr"]))
        #expect(cache.usage.entries == 2 && cache.usage.bytes == 4)
        cache.invalidate("u")
        #expect(cache.usage.entries == 0 && cache.usage.bytes == 0)
        #expect(cache.lookup("u", requestHeaders: ["Accept-Language": "en"]) == nil)
    }

    @Test("bounds evict the least recently used URL; oversized bodies are not stored")
    func bounds() {
        let cache = MemoryResponseCache(maximumEntries: 2, maximumBytes: 10)
        cache.store("a", entry(4))
        cache.store("b", entry(4))
        _ = cache.lookup("a", requestHeaders: [:])
        cache.store("c", entry(4))
        #expect(cache.lookup("b", requestHeaders: [:]) == nil)
        #expect(cache.lookup("a", requestHeaders: [:]) != nil && cache.lookup("c", requestHeaders: [:]) != nil)
        cache.store("d", entry(11))
        #expect(cache.lookup("d", requestHeaders: [:]) == nil)
        cache.store("e", entry(9))
        #expect(cache.usage.entries == 1 && cache.usage.bytes == 9)
    }

    @Test("a 304 update replaces headers and freshness of the matching entry")
    func update() {
        let cache = MemoryResponseCache()
        cache.store("u", entry(1))
        let headers: HTTPHeaders = ["Cache-Control": "max-age=600"]
        cache.update("u", vary: CacheVary(response: [:], request: [:]), headers: headers,
                     freshness: CacheFreshness(status: 200, headers: headers, requestTime: 0, responseTime: 0))
        #expect(cache.lookup("u", requestHeaders: [:])?.freshness.lifetime == 600)
    }
}
