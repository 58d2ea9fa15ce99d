#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `PersistentCache` of Codable values on the client's disk cache (`DiskResponseCache`, its
/// bounds, atomic entries and start-up sweep): each record is one entry — the value and when it
/// was stored as JSON — under a key of its own namespace. A record that no longer decodes (a
/// value type that changed) reads as absent and is removed.
public struct DiskPersistentCache<Value: Codable & Sendable>: PersistentCache {
    public typealias Key = String

    private struct Stored: Codable {
        let value: Value
        let storedAt: Double
    }

    private let cache: DiskResponseCache
    private let namespace: String

    /// A cache in `directory` (created when missing) of at most `maximumEntries` records and
    /// `maximumBytes` of them; `namespace` keeps several repositories apart in one folder.
    /// - Throws: `cache-unusable` when the folder cannot be used.
    public init(directory: URL, namespace: String = "repository", maximumEntries: Int = 4096, maximumBytes: Int = 64 << 20) throws(HTTPError) {
        cache = try DiskResponseCache(directory: directory, maximumEntries: maximumEntries, maximumBytes: maximumBytes)
        self.namespace = namespace
    }

    private func url(_ key: String) -> String { "tessera-cache://\(namespace)/" + AWSURIEncoding.encode(key) }

    public func value(for key: String) async throws(HTTPError) -> CacheRecord<Value>? {
        guard let entry = cache.lookup(url(key), requestHeaders: HTTPHeaders()) else { return nil }
        // A record of another value type (or an older layout) is absent, as documented: removed.
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(entry.body)) else {
            cache.invalidate(url(key))
            return nil
        }
        return CacheRecord(value: stored.value, storedAt: Date(timeIntervalSince1970: stored.storedAt))
    }

    public func store(_ record: CacheRecord<Value>, for key: String) async throws(HTTPError) {
        let body: Data
        do { body = try JSONEncoder().encode(Stored(value: record.value, storedAt: record.storedAt.timeIntervalSince1970)) } catch {
            throw HTTPError(.decoding, code: .bodyEncodingFailed, "A repository value could not be encoded: \(error).")
        }
        let seconds = Int64(record.storedAt.timeIntervalSince1970)
        let freshness = CacheFreshness(status: 200, headers: HTTPHeaders(), requestTime: seconds, responseTime: seconds)
        cache.store(url(key), CachedResponse(status: 200, headers: HTTPHeaders(), body: Array(body), freshness: freshness,
                                             vary: CacheVary(response: HTTPHeaders(), request: HTTPHeaders())))
    }

    public func remove(_ key: String) async throws(HTTPError) { cache.invalidate(url(key)) }
}
