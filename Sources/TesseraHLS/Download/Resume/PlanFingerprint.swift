import Foundation
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// Digests that let a checkpoint recognise its plan without storing URLs or keys.
enum PlanFingerprint {
    /// The plan's identity: container, and per resource its kind, URL without query, byte range,
    /// EXTINF, discontinuity, IV and key fingerprint. Signed query values may change between
    /// runs without invalidating a checkpoint; any change of media, range or key does.
    static func of(_ plan: DownloadPlan, keys: [URL: [UInt8]]) -> SHA256Digest {
        var text = "tessera-plan 1\n\(plan.container.rawValue)\n"
        for resource in plan.resources {
            let range = resource.range.map { "\($0.offset)+\($0.length.map(String.init) ?? "")" } ?? "-"
            let key = resource.encryption.map { encryption -> String in
                let digest = keys[encryption.keyURL].map { Self.key($0).hex } ?? "?"
                return "\(digest) \(HexCoding.encode(encryption.iv))"
            } ?? "clear"
            text += "\(resource.kind.rawValue) \(withoutQuery(resource.url)) \(range) \(resource.duration) \(resource.startsDiscontinuity) \(key)\n"
        }
        return SHA256Hasher.hash(Array(text.utf8))
    }

    /// A key's fingerprint: SHA-256 over a domain label and the 16 key bytes.
    static func key(_ key: [UInt8]) -> SHA256Digest {
        SHA256Hasher.hash(Array("tessera-key 1\n".utf8) + key)
    }

    /// The digest naming the file a resource came from (URL without query or fragment).
    static func source(_ url: URL) -> String {
        String(SHA256Hasher.hash(Array(withoutQuery(url).utf8)).hex.prefix(32))
    }

    /// The digest of a response's validators, or nil when it had none.
    static func validator(_ headers: HTTPHeaders) -> String? {
        let etag = headers["ETag"], modified = headers["Last-Modified"]
        guard etag != nil || modified != nil else { return nil }
        return String(SHA256Hasher.hash(Array("\(etag ?? "")\n\(modified ?? "")".utf8)).hex.prefix(32))
    }

    private static func withoutQuery(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? url.path
    }
}
