import Foundation

/// Values in diagnostics that may carry secrets — query strings, signed tokens, key URIs — are
/// cut at the first `?` (and user-info removed) before they reach a message.
enum Redaction {
    static func uri(_ text: String) -> String {
        var result = Substring(text)
        if let query = result.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            result = result[..<query] + "?<redacted>"
        }
        if let scheme = result.range(of: "://"), let at = result[scheme.upperBound...].firstIndex(of: "@"),
           !result[scheme.upperBound..<at].contains("/") {
            result = result[..<scheme.upperBound] + result[result.index(after: at)...]
        }
        return String(result.prefix(200))
    }
}
