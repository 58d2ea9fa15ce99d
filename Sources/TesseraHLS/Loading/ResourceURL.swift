#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// Resolves a playlist URI against the playlist's URL (RFC 8216bis §4.1, RFC 3986 §5), refusing
/// schemes other than http/https and any downgrade from https to http.
public enum ResourceURL {
    /// `uri` resolved against `base`, where `what` names it in messages.
    /// - Throws: `invalid-playlist` for a URI that is not one (only what comes before its query
    ///   is echoed); `unsupported` for another scheme or an HTTPS-to-HTTP downgrade.
    public static func resolve(_ uri: String, against base: URL, what: String) throws(HLSError) -> URL {
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

    /// The text an http(s) `base` resolves plain relative paths against: its absolute string up
    /// to the last `/` of its path (query and fragment dropped). Nil when joining as text could
    /// differ from `resolve` — another scheme, no path, or a dot segment the resolution would
    /// remove.
    package static func plainDirectory(of base: URL) -> String? {
        let text = base.absoluteString
        let whole = text.utf8
        guard let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let authority = whole.firstRange(of: "://".utf8)?.upperBound else { return nil }
        let end = whole[authority...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? whole.endIndex
        guard let pathStart = whole[authority..<end].firstIndex(of: UInt8(ascii: "/")),
              let slash = whole[pathStart..<end].lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let path = whole[pathStart...slash]
        guard path.firstRange(of: "/./".utf8) == nil, path.firstRange(of: "/../".utf8) == nil else { return nil }
        return String(text[...slash])
    }

    /// `uri` resolved against the base whose `plainDirectory` is `directory`, as text — what
    /// `resolve(uri, against: base).absoluteString` gives — when `uri` is a plain relative path
    /// with no dot segment and not starting at the root; nil otherwise (resolve it as a URL).
    package static func joinedPlain(_ uri: String, directory: String) -> String? {
        isJoinablePlain(uri) ? directory + uri : nil
    }

    /// Whether `joinedPlain` joins `uri` as text: a plain relative path with no dot segment,
    /// not starting at the root.
    package static func isJoinablePlain(_ uri: String) -> Bool {
        uri.utf8.first != UInt8(ascii: "/") && scanPlain(uri, refusingDotSegments: true)
    }

    /// Whether `uri` is a relative path that resolves against any http(s) base to the same
    /// scheme and host: only unreserved characters, `/`, `.`, `-`, `_`, `~` and `%`, not starting
    /// with `//`, no `:` (so no scheme). Checked on the bytes, without making a URL.
    static func isPlainRelativePath(_ uri: String) -> Bool {
        scanPlain(uri, refusingDotSegments: false)
    }

    /// `isPlainRelativePath`, and with `refusingDotSegments` no `.` or `..` segment either: one
    /// pass over the bytes, nothing allocated.
    private static func scanPlain(_ uri: String, refusingDotSegments: Bool) -> Bool {
        var previous: UInt8 = 0
        var index = 0
        var segmentLength = 0
        var dots = 0
        for byte in uri.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                segmentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            case UInt8(ascii: "/"):
                if index == 1, previous == UInt8(ascii: "/") { return false }
                if refusingDotSegments, Self.isDotSegment(length: segmentLength, dots: dots) { return false }
                segmentLength = 0
                dots = 0
            default:
                return false
            }
            previous = byte
            index += 1
        }
        return index > 0 && !(refusingDotSegments && Self.isDotSegment(length: segmentLength, dots: dots))
    }

    /// Whether a segment of `length` bytes, `dots` of them dots, is `.` or `..`.
    private static func isDotSegment(length: Int, dots: Int) -> Bool {
        (length == 1 || length == 2) && dots == length
    }
}
