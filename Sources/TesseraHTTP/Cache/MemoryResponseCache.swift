import TesseraSupport
/// The client's in-memory response store: GET responses by URL (several per URL when they vary),
/// bounded by entry count and total body bytes with least-recently-used eviction.
public final class MemoryResponseCache: ResponseCache {
    private struct Store {
        var entries: [String: [CachedResponse]] = [:]
        var order: [String] = []          // least recently used URL first
        var bytes = 0
        var count = 0
    }

    /// The most entries kept.
    public let maximumEntries: Int
    /// The most body bytes kept in total.
    public let maximumBytes: Int
    private let store = Lock(Store())

    /// An empty cache with the given bounds.
    public init(maximumEntries: Int = 512, maximumBytes: Int = 64 << 20) {
        self.maximumEntries = max(1, maximumEntries)
        self.maximumBytes = max(1, maximumBytes)
    }

    /// The stored response for `url` whose `Vary` key matches `requestHeaders`.
    public func lookup(_ url: String, requestHeaders: HTTPHeaders) -> CachedResponse? {
        store.withLock { store in
            guard let match = store.entries[url]?.first(where: { $0.vary.matches(requestHeaders) }) else { return nil }
            Self.touch(url, &store)
            return match
        }
    }

    /// Stores `response`, replacing any entry for `url` with the same `Vary` key, then evicts
    /// least recently used URLs until the bounds hold. A body larger than `maximumBytes` is not
    /// stored.
    public func store(_ url: String, _ response: CachedResponse) {
        guard response.body.count <= maximumBytes else { return }
        store.withLock { store in
            var list = store.entries[url] ?? []
            if let index = list.firstIndex(where: { $0.vary == response.vary }) {
                store.bytes -= list[index].body.count
                store.count -= 1
                list.remove(at: index)
            }
            list.append(response)
            store.entries[url] = list
            store.bytes += response.body.count
            store.count += 1
            Self.touch(url, &store)
            while store.count > maximumEntries || store.bytes > maximumBytes, let oldest = store.order.first {
                Self.remove(oldest, &store)
            }
        }
    }

    /// Replaces the headers and freshness of the stored entry for `url` matching `vary` (after a
    /// 304).
    public func update(_ url: String, vary: CacheVary, headers: HTTPHeaders, freshness: CacheFreshness) {
        store.withLock { store in
            guard let index = store.entries[url]?.firstIndex(where: { $0.vary == vary }) else { return }
            store.entries[url]?[index].headers = headers
            store.entries[url]?[index].freshness = freshness
        }
    }

    /// Removes every entry for `url` (RFC 9111 §4.4 invalidation after an unsafe method).
    public func invalidate(_ url: String) {
        store.withLock { store in Self.remove(url, &store) }
    }

    /// The number of entries and body bytes held.
    public var usage: (entries: Int, bytes: Int) {
        store.withLock { ($0.count, $0.bytes) }
    }

    private static func touch(_ url: String, _ store: inout Store) {
        store.order.removeAll { $0 == url }
        store.order.append(url)
    }

    private static func remove(_ url: String, _ store: inout Store) {
        if let list = store.entries.removeValue(forKey: url) {
            store.count -= list.count
            store.bytes -= list.reduce(0) { $0 + $1.body.count }
        }
        store.order.removeAll { $0 == url }
    }
}
