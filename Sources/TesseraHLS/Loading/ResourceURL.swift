import Foundation
import TesseraHTTP
import TesseraSupport

/// Resolves a playlist URI against the playlist's URL (RFC 8216bis §4.1, RFC 3986 §5), refusing
/// schemes other than http/https and any downgrade from https to http.
enum ResourceURL {
    static func resolve(_ uri: String, against base: URL, what: String) throws(HLSError) -> URL {
        guard let url = URL(string: uri, relativeTo: base)?.absoluteURL else {
            // Echo only what comes before a query: its values may be signed.
            throw HLSError(.invalidPlaylist, "\(what) URI \"\(uri.prefix { $0 != "?" }.prefix(80))\" is not a valid URI.")
        }
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw HLSError(.unsupported, "\(what) \(URLRedaction.redact(url)) uses an unsupported scheme; only http and https are fetched.")
        }
        if base.scheme?.lowercased() == "https", scheme == "http" {
            throw HLSError(.unsupported, "\(what) \(URLRedaction.redact(url)) would downgrade HTTPS to HTTP; refused.")
        }
        return url
    }
}
