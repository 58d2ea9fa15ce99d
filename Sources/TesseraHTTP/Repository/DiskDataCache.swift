#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `PersistentCache` of raw bodies keyed by URL on the client's disk cache (`DiskResponseCache`,
/// its bounds, atomic entries and start-up sweep): each body is stored as is — no JSON, no
/// base64 — with the time it was stored in a field of its entry.
public struct DiskDataCache: PersistentCache {
    public typealias Key = URL
    public typealias Value = Data

    private static let storedAtField = "X-Tessera-Stored-At"
    private let cache: DiskResponseCache

    /// A cache in `directory` (created when missing) of at most `maximumEntries` bodies and
    /// `maximumBytes` of them.
    /// - Throws: `cache-unusable` when the folder cannot be used.
    public init(directory: URL, maximumEntries: Int = 4096, maximumBytes: Int = 256 << 20) throws(HTTPError) {
        cache = try DiskResponseCache(directory: directory, maximumEntries: maximumEntries, maximumBytes: maximumBytes)
    }

    private static func key(_ url: URL) -> String { "tessera-data://" + url.absoluteString }

    public func value(for key: URL) async throws(HTTPError) -> CacheRecord<Data>? {
        guard let entry = cache.lookup(Self.key(key), requestHeaders: HTTPHeaders()) else { return nil }
        guard let stamp = entry.headers[Self.storedAtField].flatMap(Double.init) else {
            cache.invalidate(Self.key(key))   // not one of ours: absent
            return nil
        }
        return CacheRecord(value: Data(entry.body), storedAt: Date(timeIntervalSince1970: stamp))
    }

    public func store(_ record: CacheRecord<Data>, for key: URL) async throws(HTTPError) {
        let seconds = record.storedAt.timeIntervalSince1970
        let headers: HTTPHeaders = [Self.storedAtField: String(seconds)]
        let freshness = CacheFreshness(status: 200, headers: HTTPHeaders(), requestTime: Int64(seconds), responseTime: Int64(seconds))
        cache.store(Self.key(key), CachedResponse(status: 200, headers: headers, body: [UInt8](record.value), freshness: freshness,
                                                  vary: CacheVary(response: HTTPHeaders(), request: HTTPHeaders())))
    }

    public func remove(_ key: URL) async throws(HTTPError) { cache.invalidate(Self.key(key)) }
}
