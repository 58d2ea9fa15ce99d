#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Adds the caller's header fields (a token, a cookie) only to requests for the hosts they
/// belong to: the origin of an entry URL and any hosts named besides. An HLS job reaches key
/// servers, steering servers and CDNs the entry playlist names; a token meant for one of them
/// must not travel to the others.
public struct ScopedHeaders: HTTPInterceptor {
    /// The fields added.
    public let headers: HTTPHeaders
    private let entry: URL
    private let hosts: Set<String>

    /// Adds `headers` to requests for `entry`'s origin (scheme, host, port) and for any URL whose
    /// host is in `hosts` (compared without case).
    public init(headers: HTTPHeaders, entry: URL, hosts: Set<String> = []) {
        self.headers = headers
        self.entry = entry
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// Whether `url` may carry the fields.
    public func applies(to url: URL) -> Bool {
        hosts.contains(url.host?.lowercased() ?? "") || RedirectStateMachine.sameOrigin(entry, url)
    }

    public func intercept(_ request: inout HTTPRequest) async throws(HTTPError) {
        guard applies(to: request.url) else { return }
        for field in headers { request.headers.set(field.name, field.value) }
    }
}
