#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The file format of one `DiskResponseCache` entry:
///
///     "TSRC" · version (1 byte) · 3 zero bytes · meta length (UInt32 LE) · body length (UInt64 LE)
///     · SHA-256 of meta + body (64 hex bytes) · meta (JSON) · body
///
/// The meta holds the status, headers, freshness and `Vary` key — never the URL (files are named
/// by its digest). Anything that does not match byte for byte is damage.
struct DiskCacheEntry {
    static let magic: [UInt8] = Array("TSRC".utf8)
    static let version: UInt8 = 1
    static let headerBytes = 4 + 4 + 4 + 8 + 64

    struct Meta: Codable {
        var status: Int
        var headers: [[String]]
        var lifetime: Int64
        var isHeuristic: Bool
        var initialAge: Int64
        var responseTime: Int64
        /// nil for `Vary: *`; each field `[name]` (absent in the request) or `[name, value]`.
        var vary: [[String]]?
    }

    /// The encoded file, or nil when the metadata does not encode (then nothing is stored).
    static func encode(_ response: CachedResponse) -> [UInt8]? {
        let meta = Meta(status: response.status,
                        headers: response.headers.map { [$0.name, $0.value] },
                        lifetime: response.freshness.lifetime, isHeuristic: response.freshness.isHeuristic,
                        initialAge: response.freshness.initialAge, responseTime: response.freshness.responseTime,
                        vary: response.vary.fields.map { $0.map { field in [field.name] + (field.value.map { [$0] } ?? []) } })
        guard let metaBytes = (try? JSONEncoder().encode(meta)).map(Array.init) else { return nil }   // see the doc comment
        var out = magic + [version, 0, 0, 0]
        out += littleEndian(UInt64(metaBytes.count), bytes: 4)
        out += littleEndian(UInt64(response.body.count), bytes: 8)
        out += Array(SHA256Hasher.hash(metaBytes + response.body).hex.utf8)
        out += metaBytes
        out += response.body
        return out
    }

    /// The sizes a file header announces, or nil when it is not an entry header.
    static func lengths(header: ArraySlice<UInt8>) -> (meta: Int, body: Int)? {
        guard header.count >= headerBytes, Array(header.prefix(4)) == magic,
              header[header.startIndex + 4] == version else { return nil }
        let base = header.startIndex
        let meta = readLittleEndian(header[(base + 8)..<(base + 12)])
        let body = readLittleEndian(header[(base + 12)..<(base + 20)])
        guard meta <= UInt64(Int32.max), body <= UInt64(Int.max / 2) else { return nil }
        return (Int(meta), Int(body))
    }

    /// Decodes the meta part only (index building).
    static func decodeMeta(_ file: [UInt8]) -> Meta? {
        guard let (metaLength, _) = lengths(header: file[...]), file.count >= headerBytes + metaLength else { return nil }
        return try? JSONDecoder().decode(Meta.self, from: Data(file[headerBytes..<(headerBytes + metaLength)]))   // nil: damage
    }

    /// Decodes and verifies a whole file; nil for any damage.
    static func decode(_ file: [UInt8]) -> CachedResponse? {
        guard let (metaLength, bodyLength) = lengths(header: file[...]),
              file.count == headerBytes + metaLength + bodyLength else { return nil }
        let payload = Array(file[headerBytes...])
        guard Array(file[20..<84]) == Array(SHA256Hasher.hash(payload).hex.utf8),
              let meta = try? JSONDecoder().decode(Meta.self, from: Data(payload.prefix(metaLength))) else { return nil }   // damage
        var headers = HTTPHeaders()
        for pair in meta.headers {
            guard pair.count == 2 else { return nil }
            headers.add(pair[0], pair[1])
        }
        var fields: [(name: String, value: String?)]?
        if let vary = meta.vary {
            var list: [(name: String, value: String?)] = []
            for field in vary {
                guard field.count == 1 || field.count == 2 else { return nil }
                list.append((field[0], field.count == 2 ? field[1] : nil))
            }
            fields = list
        }
        return CachedResponse(status: meta.status, headers: headers, body: Array(payload.dropFirst(metaLength)),
                              freshness: CacheFreshness(lifetime: meta.lifetime, isHeuristic: meta.isHeuristic,
                                                        initialAge: meta.initialAge, responseTime: meta.responseTime),
                              vary: CacheVary(fields: fields))
    }

    private static func littleEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func readLittleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
