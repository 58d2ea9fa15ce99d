#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The redirect decisions for one request, as a plain value (RFC 9110 §15.4): given each
/// response, follow (with the next request), hand the response over, or refuse.
public struct RedirectStateMachine: Sendable {
    /// What to do with a response.
    public enum Decision: Sendable {
        /// Send this request next.
        case follow(HTTPRequest)
        /// Not a redirect to follow: give the response to the caller.
        case deliver
        /// A redirect that must not be followed.
        case refuse(HTTPError)
    }

    private let policy: RedirectPolicy
    private var request: HTTPRequest
    private var visited: [String]

    /// Starts with the original request.
    public init(policy: RedirectPolicy, request: HTTPRequest) {
        self.policy = policy
        self.request = request
        visited = [request.url.absoluteString]
    }

    /// Decides for a response with `status` and `headers` to the current request.
    public mutating func decide(status: Int, headers: HTTPHeaders) -> Decision {
        guard [301, 302, 303, 307, 308].contains(status), policy.maximumHops > 0 else { return .deliver }
        let from = URLRedaction.redact(request.url)
        guard let location = headers["Location"], !location.isEmpty else { return .deliver }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL else {
            return .refuse(HTTPError(.protocol, code: .badRedirect, "\(from) redirected to a Location that is not a URL."))
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            let named = target.scheme.map { "the \($0.lowercased()) scheme" } ?? "no scheme"
            return .refuse(HTTPError(.protocol, code: .badRedirect, "\(from) redirected to a location with \(named); only http and https are followed."))
        }
        guard target.host != nil else {
            return .refuse(HTTPError(.protocol, code: .badRedirect, "\(from) redirected to a location without a host."))
        }
        let to = URLRedaction.redact(target)
        guard visited.count <= policy.maximumHops else {
            return .refuse(HTTPError(.protocol, code: .tooManyRedirects, "\(from) redirected more than \(policy.maximumHops) times."))
        }
        guard !visited.contains(target.absoluteString) else {
            return .refuse(HTTPError(.protocol, code: .redirectLoop, "\(from) redirects back to \(to), a loop."))
        }
        if request.url.scheme?.lowercased() == "https", scheme == "http", !policy.allowsHTTPSDowngrade {
            return .refuse(HTTPError(.protocol, code: .insecureRedirect, "\(from) redirected from HTTPS to HTTP (\(to)); refused."))
        }
        let crossOrigin = !Self.sameOrigin(request.url, target)
        var next = request
        next.url = target
        let rewritesToGet = (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post)
        if rewritesToGet {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"] {
                next.headers.remove(name)
            }
        } else if crossOrigin, !policy.allowsCrossOriginUnsafeMethods,
                  ![HTTPMethod.get, .head, .options, HTTPMethod("TRACE")].contains(request.method) {
            return .refuse(HTTPError(.protocol, code: .unsafeCrossOriginRedirect,
                                     "\(from) redirected a \(request.method) to another origin (\(to)); refused."))
        }
        if crossOrigin {
            for field in request.headers where policy.isSensitive(field.name) { next.headers.remove(field.name) }
        }
        visited.append(target.absoluteString)
        request = next
        return .follow(next)
    }

    /// Same scheme, host and port (RFC 6454).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int? { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil) }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
    }
}
