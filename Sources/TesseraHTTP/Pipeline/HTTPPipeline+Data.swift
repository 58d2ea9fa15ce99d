#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// `data`'s path below the cancellation scope: the HTTP cache, then the coalescer, then the
/// request with its body collected.
extension HTTPPipeline {
    func cachedData(_ request: HTTPRequest, upTo limit: Int, _ cancellation: RequestCancellation) async throws(HTTPError) -> Collected {
        guard let cache = configuration.cache, request.byteRange == nil else { return try await shared(request, upTo: limit, cancellation) }
        let url = request.url.absoluteString
        guard request.method == .get else {
            let collected = try await shared(request, upTo: limit, cancellation)
            // RFC 9111 §4.4: a successful unsafe method invalidates the target URI.
            if ![.head, .options, HTTPMethod("TRACE")].contains(request.method), (200..<400).contains(collected.head.status) {
                cache.invalidate(url)
            }
            return collected
        }
        let policy = configuration.cachePolicy
        var conditional = request
        var stored: CachedResponse?
        if let entry = cache.lookup(url, requestHeaders: request.headers) {
            switch policy.reuse(stored: entry.headers, freshness: entry.freshness, request: request.headers, now: wallClock()) {
            case .fresh:
                return (HTTPResponseHead(status: entry.status, headers: entry.headers, url: request.url), entry.body)
            case .revalidate(let validators):
                conditional.headers.overlay(validators)
                stored = entry
            case .bypass:
                break
            }
        }
        let requestTime = wallClock()
        var collected = try await shared(conditional, upTo: limit, cancellation)
        let responseTime = wallClock()
        if let entry = stored, collected.head.status == 304 {
            if CacheValidation.notModified(collected.head.headers, matches: entry.headers) {
                let headers = CacheValidation.updated(entry.headers, with: collected.head.headers)
                let freshness = policy.freshness(status: entry.status, response: headers, requestTime: requestTime, responseTime: responseTime)
                cache.update(url, vary: entry.vary, headers: headers, freshness: freshness)
                return (HTTPResponseHead(status: entry.status, headers: headers, url: request.url), entry.body)
            }
            // A 304 that does not select the stored response: ask again without validators.
            collected = try await shared(request, upTo: limit, cancellation)
        }
        // The token is attached later, per hop; storage must still know the request was authorised.
        var storageHeaders = request.headers
        if request.authentication != .anonymous, auth != nil { storageHeaders.set("Authorization", "Bearer") }
        if policy.mayStore(method: "GET", request: storageHeaders, status: collected.head.status, response: collected.head.headers) {
            let freshness = policy.freshness(status: collected.head.status, response: collected.head.headers,
                                             requestTime: requestTime, responseTime: responseTime)
            cache.store(url, CachedResponse(status: collected.head.status, headers: collected.head.headers, body: collected.body,
                                            freshness: freshness, vary: CacheVary(response: collected.head.headers, request: request.headers)))
        }
        return collected
    }

    /// `data` without the cache: through the coalescer when enabled.
    private func shared(_ request: HTTPRequest, upTo limit: Int, _ cancellation: RequestCancellation) async throws(HTTPError) -> Collected {
        guard let key = coalescingKey(request, limit: limit) else { return try await fetchData(request, upTo: limit, cancellation) }
        return try await coalescer.run(key) { () async throws(HTTPError) in try await self.fetchData(request, upTo: limit, cancellation) }
    }

    /// How many callers share the in-flight fetch `data(request, upTo: limit)` would join.
    func coalescedCallers(_ request: HTTPRequest, limit: Int) async -> Int {
        guard let key = coalescingKey(request, limit: limit) else { return 0 }
        return await coalescer.waiterCount(for: key)
    }

    /// The key under which identical GETs share a fetch, or nil when this one must not.
    private func coalescingKey(_ request: HTTPRequest, limit: Int) -> String? {
        guard configuration.coalescesIdenticalGETs, request.method == .get, request.body == nil else { return nil }
        var key = "\(limit) \(request.url.absoluteString)"
        if let range = request.byteRange { key += " range=\(range.offset)-\(range.lastByte.map(String.init) ?? "")" }
        for field in request.headers { key += "\n\(field.name.lowercased()):\(field.value)" }
        return key
    }

    private func fetchData(_ request: HTTPRequest, upTo limit: Int, _ cancellation: RequestCancellation) async throws(HTTPError) -> Collected {
        try await consumeWithRetries(request, cancellation) { response throws(HTTPError) in
            let announced = response.head.headers["Content-Length"].flatMap { Int($0) } ?? 0
            return (response.head, try await response.body.collect(upTo: limit, reserving: announced))
        }
    }
}
