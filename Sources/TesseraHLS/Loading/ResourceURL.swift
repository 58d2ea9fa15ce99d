#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// Resolves a playlist URI against the playlist's URL (RFC 8216bis §4.1, RFC 3986 §5), refusing
/// schemes other than http/https and any downgrade from https to http.
package enum ResourceURL {
    package static func resolve(_ uri: String, against base: URL, what: String) throws(HLSError) -> URL {
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

    /// Whether `uri` is a relative path that resolves against any http(s) base to the same
    /// scheme and host: only unreserved characters, `/`, `.`, `-`, `_`, `~` and `%`, not starting
    /// with `//`, no `:` (so no scheme). Checked on the bytes, without making a URL.
    static func isPlainRelativePath(_ uri: String) -> Bool {
        var previous: UInt8 = 0
        var index = 0
        for byte in uri.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                break
            case UInt8(ascii: "/"):
                if index == 1, previous == UInt8(ascii: "/") { return false }
            default:
                return false
            }
            previous = byte
            index += 1
        }
        return index > 0
    }
}
