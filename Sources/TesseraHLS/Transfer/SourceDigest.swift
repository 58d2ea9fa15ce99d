#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// Digests that let a checkpoint recognise where a resource came from without storing URLs:
/// signed query values may change between runs without invalidating a checkpoint; another file
/// or another version of it (ETag, Last-Modified) does.
package enum SourceDigest {
    /// The digest naming the file a resource came from (URL without user-info, query or
    /// fragment).
    package static func of(_ url: URL) -> String {
        String(SHA256Hasher.hash(Array(withoutQuery(url).utf8)).hex.prefix(32))
    }

    /// The digest of a response's validators, or nil when it had none.
    package static func validator(_ headers: HTTPHeaders) -> String? {
        let etag = headers["ETag"], modified = headers["Last-Modified"]
        guard etag != nil || modified != nil else { return nil }
        return String(SHA256Hasher.hash(Array("\(etag ?? "")\n\(modified ?? "")".utf8)).hex.prefix(32))
    }

    /// `url` as text without user-info, query or fragment.
    package static func withoutQuery(_ url: URL) -> String {
        guard var components = URLRedaction.withoutCredentials(url) else { return url.path }
        components.query = nil
        return components.string ?? url.path
    }
}
