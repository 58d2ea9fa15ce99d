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
        let bytes = path.utf8
        guard !bytes.contains(UInt8(ascii: "?")), !bytes.contains(UInt8(ascii: "#")) else {
            throw HTTPError(.invalidRequest, code: .badPath, "The path contains '?' or '#'; pass query items separately.")
        }
        // One pass over the path's bytes into one buffer: each segment checked and encoded as it
        // is found (no split, no string per segment).
        var out: [UInt8] = []
        out.reserveCapacity(prefix.utf8.count + bytes.count + 2 + 32 * query.count)
        out.append(contentsOf: prefix.utf8)
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: "/") { index = bytes.index(after: index) }
        if index == bytes.endIndex {
            out.append(UInt8(ascii: "/"))
        } else {
            var segmentStart = index
            while true {
                guard index == bytes.endIndex || bytes[index] == UInt8(ascii: "/") else {
                    index = bytes.index(after: index)
                    continue
                }
                try Self.appendSegment(bytes[segmentStart..<index], to: &out)   // a trailing `/` ends in an empty one
                if index == bytes.endIndex { break }
                index = bytes.index(after: index)
                segmentStart = index
            }
        }
        for (number, (name, value)) in query.enumerated() {
            out.append(number == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            PercentEncoding.append(name.utf8, allowed: PercentEncoding.unreserved, to: &out)
            out.append(UInt8(ascii: "="))
            PercentEncoding.append(value.utf8, allowed: PercentEncoding.unreserved, to: &out)
        }
        guard let url = URL(string: String(decoding: out, as: UTF8.self)) else {
            throw HTTPError(.invalidRequest, code: .badPath, "The request URL could not be formed.")
        }
        return url
    }

    /// Appends `/` and `segment` percent-encoded; a `.` or `..` segment is refused.
    private static func appendSegment(_ segment: Substring.UTF8View, to out: inout [UInt8]) throws(HTTPError) {
        let dot = UInt8(ascii: ".")
        if segment.count == 1 && segment.first == dot || segment.count == 2 && segment.allSatisfy({ $0 == dot }) {
            throw HTTPError(.invalidRequest, code: .badPath, "The path contains a '.' or '..' segment.")
        }
        out.append(UInt8(ascii: "/"))
        PercentEncoding.append(segment, allowed: pathAllowed, to: &out)
    }

    /// The URL for `path` and `query` under `base`.
    /// - Throws: `invalidRequest` with codes `insecure-base-url`, `bad-base-url` or `bad-path`.
    public static func make(base: URL, path: String, query: [(String, String)] = [], allowHTTP: Bool = false) throws(HTTPError) -> URL {
        try RequestURL(base: base, allowHTTP: allowHTTP).url(path: path, query: query)
    }

    /// Unreserved plus the sub-delimiters and `:@` a path segment may hold literally.
    static let pathAllowed = PercentEncoding.unreserved.union("!$&'()*+,;=:@")
}
