import Foundation
import Testing
import TesseraHTTPTesting
import TesseraTestSupport
@testable import TesseraHTTP
import TesseraSupport

@Suite("DiskResponseCache")
struct DiskResponseCacheTests {
    private func entry(_ bytes: Int, vary: HTTPHeaders = [:], request: HTTPHeaders = [:], fill: UInt8 = 1) -> CachedResponse {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=60", "ETag": "\"v1\""]
        return CachedResponse(status: 200, headers: headers, body: Array(repeating: fill, count: bytes),
                              freshness: CacheFreshness(status: 200, headers: headers, requestTime: 100, responseTime: 101),
                              vary: CacheVary(response: vary, request: request))
    }

    private func files(_ folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test("entries survive a restart whole: status, headers, body, freshness and Vary key")
    func survivesRestart() throws {
        let folder = try TemporaryDirectory()
        let url = "https://api.example.com/v1/items?sig=SECRET-SIGNATURE"
        let stored = entry(300, vary: ["Vary": "Accept-Language"], request: ["Accept-Language": "en"], fill: 7)
        try DiskResponseCache(directory: folder.url).store(url, stored)
        let reopened = try DiskResponseCache(directory: folder.url)
        let found = try #require(reopened.lookup(url, requestHeaders: ["Accept-Language": "en"]))
        #expect(found.status == 200 && found.headers == stored.headers && found.body == stored.body)
        #expect(found.freshness == stored.freshness && found.vary == stored.vary)
        #expect(reopened.lookup(url, requestHeaders: ["Accept-Language": "fr"]) == nil)
        #expect(reopened.usage.entries == 1 && reopened.usage.bytes == 300)
        // Neither the URL nor its signed query reaches the disk; the folder and files are private.
        for name in try files(folder) {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("SECRET") && !name.contains("example"))
            let mode = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        let created = folder.url.appendingPathComponent("new/cache")
        _ = try DiskResponseCache(directory: created)
        let folderMode = try FileManager.default.attributesOfItem(atPath: created.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
    }

    @Test("a flipped byte, a torn write, a stranger's file and a leftover temporary are evicted, not served")
    func corruptEntries() throws {
        let folder = try TemporaryDirectory()
        let cache = try DiskResponseCache(directory: folder.url)
        cache.store("a", entry(100))
        cache.store("b", entry(100))
        let names = try files(folder)
        #expect(names.count == 2)
        // Flip one body byte of the first entry: the lookup misses and the file goes.
        let flipped = folder.url.appendingPathComponent(names[0])
        var bytes = try Data(contentsOf: flipped)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: flipped)
        let key = names[0].hasPrefix(SHA256Hasher.hash(Array("a".utf8)).hex) ? "a" : "b"
        #expect(cache.lookup(key, requestHeaders: [:]) == nil)
        #expect(try files(folder).count == 1 && cache.usage.entries == 1)
        // Truncate the other, add junk and a leftover temporary: a restart keeps nothing of them.
        let torn = folder.url.appendingPathComponent(try files(folder)[0])
        try Data(try Data(contentsOf: torn).prefix(90)).write(to: torn)
        _ = try folder.write("0000-0000.entry", Array("not an entry".utf8))
        _ = try folder.write("x.entry.tmp-abc", [1, 2, 3])
        let reopened = try DiskResponseCache(directory: folder.url)
        let left = try files(folder)
        #expect(reopened.usage.entries == 0 && left.isEmpty)
    }

    @Test("bounds evict the least recently used entry; revalidation updates and invalidation persist")
    func boundsUpdateInvalidate() throws {
        let folder = try TemporaryDirectory()
        let cache = try DiskResponseCache(directory: folder.url, maximumEntries: 2, maximumBytes: 1000)
        cache.store("a", entry(10))
        cache.store("b", entry(10))
        _ = cache.lookup("a", requestHeaders: [:])
        cache.store("c", entry(10))
        #expect(cache.lookup("b", requestHeaders: [:]) == nil && cache.lookup("a", requestHeaders: [:]) != nil)
        cache.store("big", entry(1001))
        #expect(cache.lookup("big", requestHeaders: [:]) == nil)
        let fresher = CacheFreshness(status: 200, headers: ["Cache-Control": "max-age=600"], requestTime: 500, responseTime: 501)
        cache.update("a", vary: CacheVary(response: [:], request: [:]), headers: ["Cache-Control": "max-age=600", "ETag": "\"v2\""], freshness: fresher)
        let reopened = try DiskResponseCache(directory: folder.url, maximumEntries: 2, maximumBytes: 1000)
        #expect(reopened.lookup("a", requestHeaders: [:])?.headers["ETag"] == "\"v2\"")
        #expect(reopened.lookup("a", requestHeaders: [:])?.freshness == fresher)
        reopened.invalidate("a")
        #expect(try DiskResponseCache(directory: folder.url).lookup("a", requestHeaders: [:]) == nil)
    }

    @Test("through the client and libcurl: a second client on the same folder answers from disk; a damaged entry is fetched again")
    func clientAcrossRestarts() async throws {
        let harness = try ClientHarness { _ in
            ScriptedServer.Reply(200, headers: ["Cache-Control": "max-age=300", "ETag": "\"e1\""], body: Array("cached body".utf8))
        }
        let folder = try TemporaryDirectory()
        func client() throws -> HTTPClient {
            let cache = try DiskResponseCache(directory: folder.url)
            return try harness.client { $0.pipeline.cache = cache }
        }
        let request = RequestBuilder.get("thing", as: String.self)
        #expect(try await client().send(request) == "cached body")
        #expect(try await client().send(request) == "cached body")
        #expect(harness.server.log.count == 1)
        for name in try files(folder) {
            let path = folder.url.appendingPathComponent(name)
            var bytes = try Data(contentsOf: path)
            bytes[100] ^= 0x01
            try bytes.write(to: path)
        }
        #expect(try await client().send(request) == "cached body")
        #expect(harness.server.log.count == 2)
    }
}
