import Foundation

/// Builds request URLs from a base URL, an endpoint path and query items, by the client's rules:
/// the path is appended after the base path (one `/` between them), a `?` or `#` inside the
/// path is refused, query values are percent-encoded so only RFC 3986 unreserved characters stay
/// literal (repeated names kept in order), `http://` bases are refused unless allowed, and
/// user-info or fragments in the base are refused.
public enum RequestURL {
    /// The URL for `path` and `query` under `base`.
    /// - Throws: `invalidRequest` with codes `insecure-base-url`, `bad-base-url` or `bad-path`.
    public static func make(base: URL, path: String, query: [(String, String)] = [], allowHTTP: Bool = false) throws(HTTPError) -> URL {
        guard let parts = URLComponents(url: base, resolvingAgainstBaseURL: false), let host = parts.host, !host.isEmpty else {
            throw HTTPError(.invalidRequest, code: "bad-base-url", "The base URL has no host.")
        }
        let scheme = parts.scheme?.lowercased() ?? ""
        switch scheme {
        case "https": break
        case "http" where allowHTTP: break
        case "http": throw HTTPError(.invalidRequest, code: "insecure-base-url", "The base URL \(URLRedaction.redact(base)) is http:// and plain HTTP was not allowed.")
        default: throw HTTPError(.invalidRequest, code: "bad-base-url", "The base URL's scheme is not http or https.")
        }
        guard parts.user == nil, parts.password == nil, parts.fragment == nil, parts.percentEncodedQuery == nil else {
            throw HTTPError(.invalidRequest, code: "bad-base-url", "The base URL \(URLRedaction.redact(base)) carries user-info, a query or a fragment.")
        }
        guard !path.contains("?"), !path.contains("#") else {
            throw HTTPError(.invalidRequest, code: "bad-path", "The path contains '?' or '#'; pass query items separately.")
        }
        var basePath = parts.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        var relative = Substring(path)
        while relative.hasPrefix("/") { relative = relative.dropFirst() }
        let encodedPath = relative.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment != ".", segment != ".." else { return "\u{0}" }
            return PercentEncoding.encode(segment, allowed: pathAllowed)
        }
        guard !encodedPath.contains("\u{0}") else {
            throw HTTPError(.invalidRequest, code: "bad-path", "The path contains a '.' or '..' segment.")
        }
        var text = "\(scheme)://\(parts.percentEncodedHost ?? host)"
        if let port = parts.port { text += ":\(port)" }
        text += basePath + "/" + encodedPath.joined(separator: "/")
        if !query.isEmpty {
            text += "?" + query.map { PercentEncoding.encode($0.0, allowed: PercentEncoding.unreserved) + "=" + PercentEncoding.encode($0.1, allowed: PercentEncoding.unreserved) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw HTTPError(.invalidRequest, code: "bad-path", "The request URL could not be formed.")
        }
        return url
    }

    /// Unreserved plus the sub-delimiters and `:@` a path segment may hold literally.
    static let pathAllowed: Set<UInt8> = PercentEncoding.unreserved.union(Array("!$&'()*+,;=:@".utf8))
}
