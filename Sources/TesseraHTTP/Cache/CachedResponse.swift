/// One stored response of the client's cache.
public struct CachedResponse: Sendable {
    /// The status.
    public let status: Int
    /// The stored header fields (updated by 304s).
    public var headers: HTTPHeaders
    /// The body.
    public let body: [UInt8]
    /// Its freshness as computed when stored or last revalidated.
    public var freshness: CacheFreshness
    /// The secondary key from `Vary`.
    public let vary: CacheVary

    /// Creates an entry.
    public init(status: Int, headers: HTTPHeaders, body: [UInt8], freshness: CacheFreshness, vary: CacheVary) {
        self.status = status
        self.headers = headers
        self.body = body
        self.freshness = freshness
        self.vary = vary
    }
}
