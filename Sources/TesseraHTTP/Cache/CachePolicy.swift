/// What the client's private cache may store and reuse (RFC 9111 §3 and §4), decided from
/// header fields alone so the rules are tested without a store or a clock.
public struct CachePolicy: Sendable, Equatable {
    /// Responses larger than this are never stored. Default 64 MiB.
    public var maximumEntryBytes: Int64 = 64 << 20
    /// The most a heuristic freshness lifetime may be, in seconds. Default one day.
    public var heuristicCap: Int64 = 86_400

    /// The defaults.
    public init() {}

    /// How a stored response may answer a request.
    public enum Reuse: Sendable, Equatable {
        /// Serve it as is.
        case fresh
        /// Send the request with these conditional fields; a matching `304` revalidates it.
        case revalidate(HTTPHeaders)
        /// Do not use it; fetch anew.
        case bypass
    }

    /// The freshness of a response under this policy's heuristic cap.
    public func freshness(status: Int, response: HTTPHeaders, requestTime: Int64, responseTime: Int64) -> CacheFreshness {
        CacheFreshness(status: status, headers: response, requestTime: requestTime, responseTime: responseTime, heuristicCap: heuristicCap)
    }

    /// Whether a response may be stored (§3): a `GET` whose request and response lack
    /// `no-store`, with a final status the cache understands, a known length within the limit,
    /// and either explicit freshness, a validator, or a heuristically cacheable status. Partial
    /// (`206`) responses are not stored, nor responses to requests with `Authorization` unless
    /// they carry `private`, `public`, `must-revalidate` or `s-maxage`.
    public func mayStore(method: String, request: HTTPHeaders, status: Int, response: HTTPHeaders) -> Bool {
        guard method == "GET", (200..<600).contains(status), status != 206, status != 304 else { return false }
        let requestControl = CacheControl(headers: request)
        let responseControl = CacheControl(headers: response)
        guard !requestControl.noStore, !responseControl.noStore else { return false }
        if let length = response["Content-Length"].flatMap({ Int64($0) }), length > maximumEntryBytes { return false }
        if response.values("Vary").contains(where: { $0.contains("*") }) { return false }
        // Authorization-aware (after RFC 9111 §3.5): a response to an authorised request is kept
        // only when the server marked it as storable for that case.
        if request["Authorization"] != nil,
           !["private", "public", "must-revalidate", "s-maxage"].contains(where: responseControl.contains) { return false }
        let explicit = responseControl.seconds("max-age") != nil || response["Expires"] != nil
        let validated = response["ETag"] != nil || response["Last-Modified"] != nil
        return explicit || responseControl.contains("public") || responseControl.noCache
            || (validated && CacheFreshness.heuristicallyCacheableStatuses.contains(status))
    }

    /// How the stored response (`stored`, with `freshness`) may answer `request` at `now`
    /// (§4.2, §4.3, §5.2.1): request `no-cache`/`Pragma: no-cache`, `max-age`, `min-fresh` and
    /// `max-stale` narrow or widen reuse; response `no-cache` forces revalidation; a stale
    /// response with `must-revalidate` is never served without it.
    public func reuse(stored: HTTPHeaders, freshness: CacheFreshness, request: HTTPHeaders, now: Int64) -> Reuse {
        let requestControl = CacheControl(headers: request)
        let responseControl = CacheControl(headers: stored)
        let conditional = CacheValidation.conditionalHeaders(for: stored)
        let revalidate: Reuse = conditional.count == 0 ? .bypass : .revalidate(conditional)
        if requestControl.noStore { return .bypass }
        let pragmaNoCache = request.values("Pragma").contains { $0.lowercased().contains("no-cache") }
        if requestControl.noCache || (pragmaNoCache && request["Cache-Control"] == nil) || responseControl.noCache {
            return revalidate
        }
        let age = freshness.currentAge(now: now)
        var lifetime = freshness.lifetime
        switch requestControl.seconds("max-age") {
        case .seconds(let limit)?: if age > limit { return revalidate }
        case .invalid?: return revalidate
        case nil: break
        }
        switch requestControl.seconds("min-fresh") {
        case .seconds(let extra)?: lifetime -= extra
        case .invalid?: return revalidate
        case nil: break
        }
        if lifetime > age { return .fresh }
        // Stale: only a request's max-stale may accept it, and never under must-revalidate.
        guard !responseControl.mustRevalidate, requestControl.contains("max-stale") else { return revalidate }
        switch requestControl.seconds("max-stale") {
        case .seconds(let tolerance)?: return age - lifetime <= tolerance ? .fresh : revalidate
        case .invalid?: return requestControl.directives.contains { $0.name == "max-stale" && $0.value == nil } ? .fresh : revalidate
        case nil: return revalidate
        }
    }
}
