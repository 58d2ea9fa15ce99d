#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// URL text safe for messages, logs and events: scheme, host, port and path only. User-info,
/// query and fragment (where credentials and signed tokens live) are replaced by markers.
package enum URLRedaction {
    /// The redacted text of `url`.
    package static func redact(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "<unparseable URL>" }
        let hadQuery = parts.percentEncodedQuery != nil
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        let base = parts.string ?? "<unparseable URL>"
        return hadQuery ? base + "?<redacted>" : base
    }

    /// The redacted form of URI text as a playlist writes it (relative or absolute, perhaps not
    /// a valid URL): cut at the first `?` or `#` (marked `?<redacted>`), user-info removed, at
    /// most 200 characters. Diagnostics use it for URIs that may carry signed tokens.
    package static func redact(uri text: String) -> String {
        var result = Substring(text)
        if let query = result.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            result = result[..<query] + "?<redacted>"
        }
        if let colon = result.firstIndex(of: ":"), result[colon...].hasPrefix("://") {
            let authority = result.index(colon, offsetBy: 3)
            if let at = result[authority...].firstIndex(of: "@"), !result[authority..<at].contains("/") {
                result = result[..<authority] + result[result.index(after: at)...]
            }
        }
        return String(result.prefix(200))
    }

    /// The event form of `url` (what the event stream and `curlCommand()` show): user-info and
    /// fragment removed, every query value replaced by `<redacted>` with the names kept in
    /// order, and path segments that look like JWTs (three base64url parts joined by dots,
    /// beginning `eyJ`) replaced by `<jwt>`.
    package static func forEvents(_ url: URL) -> String {
        guard var parts = withoutCredentials(url) else { return "<unparseable URL>" }
        let query = parts.percentEncodedQuery
        parts.percentEncodedQuery = nil
        let path = parts.percentEncodedPath
            .split(separator: "/", omittingEmptySubsequences: false)
            .map { isJWTLike($0) ? "<jwt>" : String($0) }
            .joined(separator: "/")
        parts.percentEncodedPath = ""
        guard var text = parts.string else { return "<unparseable URL>" }
        text += path
        if let query {
            let names = query.split(separator: "&", omittingEmptySubsequences: false).map { item in
                item.split(separator: "=", maxSplits: 1).first.map { "\($0)=<redacted>" } ?? "=<redacted>"
            }
            text += "?" + names.joined(separator: "&")
        }
        return text
    }

    /// The components of `url` without user-info and fragment.
    package static func withoutCredentials(_ url: URL) -> URLComponents? {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        parts.user = nil
        parts.password = nil
        parts.fragment = nil
        return parts
    }

    /// Whether `text` looks like a JWT (three base64url parts joined by dots, beginning `eyJ`).
    package static func looksLikeJWT(_ text: String) -> Bool { isJWTLike(Substring(text)) }

    private static func isJWTLike(_ segment: Substring) -> Bool {
        let pieces = segment.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3, segment.hasPrefix("eyJ"), pieces[0].count >= 8, pieces[1].count >= 8 else { return false }
        return pieces.allSatisfy { piece in
            piece.utf8.allSatisfy { b in
                (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F
            }
        }
    }
}
