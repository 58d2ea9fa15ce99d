#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Builds request URLs from a base URL, an endpoint path and query items, by the client's rules:
/// the path is appended after the base path (one `/` between them), a `?` or `#` inside the
/// path is refused, query values are percent-encoded so only RFC 3986 unreserved characters stay
/// literal (repeated names kept in order), `http://` bases are refused unless allowed, and
/// user-info or fragments in the base are refused. The base is checked and split once; each URL
/// is then one string build.
public struct RequestURL: Sendable {
    /// `scheme://host[:port]/base/path` without a trailing `/`.
    private let prefix: String

    /// Checks and splits `base`.
    /// - Throws: `invalidRequest` with codes `insecure-base-url` or `bad-base-url`.
    public init(base: URL, allowHTTP: Bool = false) throws(HTTPError) {
        guard let parts = URLComponents(url: base, resolvingAgainstBaseURL: false), let host = parts.host, !host.isEmpty else {
            throw HTTPError(.invalidRequest, code: .badBaseURL, "The base URL has no host.")
        }
        let scheme = parts.scheme?.lowercased() ?? ""
        switch scheme {
        case "https": break
        case "http" where allowHTTP: break
        case "http": throw HTTPError(.invalidRequest, code: .insecureBaseURL, "The base URL \(URLRedaction.redact(base)) is http:// and plain HTTP was not allowed.")
        default: throw HTTPError(.invalidRequest, code: .badBaseURL, "The base URL's scheme is not http or https.")
        }
        guard parts.user == nil, parts.password == nil, parts.fragment == nil, parts.percentEncodedQuery == nil else {
            throw HTTPError(.invalidRequest, code: .badBaseURL, "The base URL \(URLRedaction.redact(base)) carries user-info, a query or a fragment.")
        }
        var basePath = parts.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        var text = "\(scheme)://\(parts.percentEncodedHost ?? host)"
        if let port = parts.port { text += ":\(port)" }
        prefix = text + basePath
    }

    /// The URL for `path` and `query`.
    /// - Throws: `invalidRequest` (`bad-path`) for `?`, `#`, `.` or `..` in the path.
    public func url(path: String, query: [(String, String)] = []) throws(HTTPError) -> URL {
        guard !path.utf8.contains(UInt8(ascii: "?")), !path.utf8.contains(UInt8(ascii: "#")) else {
            throw HTTPError(.invalidRequest, code: .badPath, "The path contains '?' or '#'; pass query items separately.")
        }
        var relative = Substring(path)
        while relative.hasPrefix("/") { relative = relative.dropFirst() }
        var text = prefix
        for segment in relative.split(separator: "/", omittingEmptySubsequences: false) {
            guard segment != ".", segment != ".." else {
                throw HTTPError(.invalidRequest, code: .badPath, "The path contains a '.' or '..' segment.")
            }
            text += "/" + PercentEncoding.encode(segment, allowed: Self.pathAllowed)
        }
        if relative.isEmpty { text += "/" }
        if !query.isEmpty {
            text += "?" + query.map { PercentEncoding.encode($0.0, allowed: PercentEncoding.unreserved) + "=" + PercentEncoding.encode($0.1, allowed: PercentEncoding.unreserved) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw HTTPError(.invalidRequest, code: .badPath, "The request URL could not be formed.")
        }
        return url
    }

    /// The URL for `path` and `query` under `base`.
    /// - Throws: `invalidRequest` with codes `insecure-base-url`, `bad-base-url` or `bad-path`.
    public static func make(base: URL, path: String, query: [(String, String)] = [], allowHTTP: Bool = false) throws(HTTPError) -> URL {
        try RequestURL(base: base, allowHTTP: allowHTTP).url(path: path, query: query)
    }

    /// Unreserved plus the sub-delimiters and `:@` a path segment may hold literally.
    static let pathAllowed = PercentEncoding.unreserved.union("!$&'()*+,;=:@")
}
