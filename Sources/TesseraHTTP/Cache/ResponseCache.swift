/// Where the client's cache keeps responses: `MemoryResponseCache` or `DiskResponseCache`.
/// Implementations are bounded, thread-safe, and treat a damaged entry as a miss (and drop it).
public protocol ResponseCache: Sendable {
    /// The stored response for `url` whose `Vary` key matches `requestHeaders`.
    func lookup(_ url: String, requestHeaders: HTTPHeaders) -> CachedResponse?
    /// Stores `response` for `url`, replacing the entry with the same `Vary` key.
    func store(_ url: String, _ response: CachedResponse)
    /// Replaces the headers and freshness of the entry for `url` matching `vary` (after a 304).
    func update(_ url: String, vary: CacheVary, headers: HTTPHeaders, freshness: CacheFreshness)
    /// Removes every entry for `url`.
    func invalidate(_ url: String)
}
