/// The age and freshness lifetime of a stored response (RFC 9111 §4.2), computed from its
/// header fields and the client's own clock readings. All times are seconds since 1970, UTC.
public struct CacheFreshness: Sendable, Equatable {
    /// How long the response stays fresh from its origination (§4.2.1), in seconds.
    public let lifetime: Int64
    /// Whether `lifetime` came from the heuristic of §4.2.2 rather than the server.
    public let isHeuristic: Bool
    /// The response's age at the time of storage (§4.2.3 `corrected_initial_age`), in seconds.
    public let initialAge: Int64
    /// When the client received the response.
    public let responseTime: Int64

    /// Freshness as stored earlier (the disk cache reading an entry back).
    init(lifetime: Int64, isHeuristic: Bool, initialAge: Int64, responseTime: Int64) {
        self.lifetime = lifetime
        self.isHeuristic = isHeuristic
        self.initialAge = initialAge
        self.responseTime = responseTime
    }

    /// The age at `now` (§4.2.3 `current_age`).
    public func currentAge(now: Int64) -> Int64 {
        initialAge + max(0, now - responseTime)
    }

    /// Whether the response may be reused without revalidation at `now`.
    public func isFresh(now: Int64) -> Bool {
        lifetime > currentAge(now: now)
    }

    /// Statuses a cache may store without explicit freshness and give a heuristic lifetime
    /// (RFC 9110 §15.1 "heuristically cacheable").
    public static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Computes freshness for a response.
    ///
    /// - Parameters:
    ///   - status: the response status.
    ///   - headers: the response header fields (`Cache-Control`, `Date`, `Age`, `Expires`,
    ///     `Last-Modified`).
    ///   - requestTime: when the request was sent.
    ///   - responseTime: when the response head arrived.
    ///   - heuristicFraction: the share of the time since `Last-Modified` a response without
    ///     explicit freshness stays fresh (§4.2.2 suggests 10 %).
    ///   - heuristicCap: the most a heuristic lifetime may be, in seconds.
    public init(status: Int, headers: HTTPHeaders, requestTime: Int64, responseTime: Int64,
                heuristicFraction: Double = 0.1, heuristicCap: Int64 = 86_400) {
        let control = CacheControl(headers: headers)
        let date = headers["Date"].flatMap { HTTPDate.secondsSince1970($0, now: responseTime) }
        // §4.2.3: a missing or unparseable Date is the time of receipt; Age is delta-seconds.
        let dateValue = date ?? responseTime
        let ageValue = headers["Age"].flatMap(CacheControl.deltaSeconds) ?? 0
        let apparentAge = max(0, responseTime - dateValue)
        let correctedAge = ageValue + max(0, responseTime - requestTime)
        self.initialAge = max(apparentAge, correctedAge)
        self.responseTime = responseTime

        if let maxAge = control.seconds("max-age") {
            // A private cache ignores s-maxage (§5.2.2.10).
            if case .seconds(let value) = maxAge { lifetime = value } else { lifetime = 0 }
            isHeuristic = false
        } else if let expiresText = headers["Expires"] {
            // §5.3: an invalid Expires (including "0") means already expired.
            if let expires = HTTPDate.secondsSince1970(expiresText, now: responseTime) {
                lifetime = max(0, expires - dateValue)
            } else {
                lifetime = 0
            }
            isHeuristic = false
        } else if Self.heuristicallyCacheableStatuses.contains(status) || control.contains("public"),
                  let modified = headers["Last-Modified"].flatMap({ HTTPDate.secondsSince1970($0, now: responseTime) }),
                  modified < dateValue {
            lifetime = min(heuristicCap, Int64(Double(dateValue - modified) * heuristicFraction))
            isHeuristic = true
        } else {
            lifetime = 0
            isHeuristic = false
        }
    }
}
