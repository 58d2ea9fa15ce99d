/// How redirects are followed (by the client, hop by hop — libcurl never follows them).
public struct RedirectPolicy: Sendable, Equatable {
    /// Most hops. Default 5.
    public var maximumHops = 5
    /// Follow https → http. Default false (refused with `insecure-redirect`).
    public var allowsHTTPSDowngrade = false
    /// Follow cross-origin redirects of unsafe methods (POST, PUT, …). Default false.
    public var allowsCrossOriginUnsafeMethods = false
    /// Header names (any case) removed when a redirect leaves the origin, besides the built-in
    /// Authorization, Cookie, Proxy-Authorization and API-key-like names.
    public var extraSensitiveHeaders: Set<String> = []

    /// The defaults.
    public init() {}

    /// Never follow: a 3xx is returned to the caller.
    public static var none: RedirectPolicy {
        var policy = RedirectPolicy()
        policy.maximumHops = 0
        return policy
    }

    /// True when `name` must not cross origins.
    public func isSensitive(_ name: String) -> Bool {
        let lower = name.lowercased()
        if ["authorization", "cookie", "proxy-authorization"].contains(lower) { return true }
        if lower.contains("api-key") || lower.contains("apikey") || lower.hasSuffix("-token") || lower == "x-auth-token" { return true }
        return extraSensitiveHeaders.contains { $0.lowercased() == lower }
    }
}
