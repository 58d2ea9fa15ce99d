#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bodies of remote resources (thumbnails, sprites, small JSON documents) by URL: a `Repository`
/// whose loads are GETs through an `HTTPClient` — its retries, trust, auth and events — over a
/// memory LRU and, optionally, a disk layer (`DiskDataCache`) that survives restarts. Concurrent
/// asks for one URL share one request; failures are never kept; a body over `maximumItemBytes`
/// fails with `body-too-large` instead of filling memory.
///
/// ```swift
/// let thumbnails = try RemoteDataCache(client: client, directory: cachesFolder.appending(path: "thumbs"))
/// let bytes = try await thumbnails.data(for: URL(string: "https://cdn.example/t/42.jpg")!)
/// let fresh = try await thumbnails.data(for: url, policy: .maximumAge(.seconds(600)))
/// ```
public final class RemoteDataCache: Sendable {
    private let repository: Repository<URL, Data>

    /// A cache loading through `client`: at most `memoryEntries` bodies in memory, and, with
    /// `directory`, up to `maximumDiskBytes` on disk.
    /// - Throws: `cache-unusable` when `directory` cannot be used.
    public init(client: HTTPClient, memoryEntries: Int = 128, directory: URL? = nil, maximumDiskBytes: Int = 256 << 20,
                maximumItemBytes: Int = 16 << 20, now: @escaping @Sendable () -> Date = { Date() }) throws(HTTPError) {
        let persistent = try directory.map { (folder) throws(HTTPError) in try DiskDataCache(directory: folder, maximumBytes: maximumDiskBytes) }
        repository = Repository(cache: LayeredCache(memory: MemoryCache(maximumEntries: memoryEntries), persistent: persistent), now: now) {
            (url) async throws(HTTPError) -> Data in
            let response = try await client.stream(HTTPRequest(url: url))
            return Data(try await response.body.collect(upTo: maximumItemBytes))
        }
    }

    /// The body at `url` by `policy` (default: the cached one, else a GET).
    /// - Throws: the client's errors (status, transport, `body-too-large`); `cache-miss` under
    ///   `.returnCacheDontLoad` with nothing cached.
    public func data(for url: URL, policy: Repository<URL, Data>.Policy = .returnCacheElseLoad) async throws(HTTPError) -> Data {
        try await repository.value(for: url, policy: policy)
    }

    /// Forgets `url` in memory and on disk.
    /// - Throws: the disk layer's error.
    public func invalidate(_ url: URL) async throws(HTTPError) { try await repository.invalidate(url) }
}
