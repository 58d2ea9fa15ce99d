#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A steering manifest (HLS Content Steering; VERSION 1): how long it holds, where to reload it,
/// the pathways in order of preference and the pathways to clone.
public struct SteeringManifest: Hashable, Sendable {
    /// TTL, seconds (> 0).
    public var ttl: Double
    /// RELOAD-URI as written (resolved against the URL the manifest came from).
    public var reloadURI: String?
    /// PATHWAY-PRIORITY, most preferred first (non-empty, no repeats).
    public var pathwayPriority: [String]
    /// PATHWAY-CLONES, in order.
    public var clones: [PathwayClone]

    /// Creates a manifest.
    public init(ttl: Double = 300, reloadURI: String? = nil, pathwayPriority: [String], clones: [PathwayClone] = []) {
        self.ttl = ttl
        self.reloadURI = reloadURI
        self.pathwayPriority = pathwayPriority
        self.clones = clones
    }

    /// The manifest in `bytes` (a JSON object).
    /// - Throws: `invalid-steering-manifest` when it is not JSON, VERSION is missing or not 1,
    ///   TTL is not a positive number, PATHWAY-PRIORITY is empty, repeats or has an ID outside
    ///   `[a-zA-Z0-9._-]`, or a clone lacks BASE-ID, ID or URI-REPLACEMENT.
    public static func parse(_ bytes: [UInt8]) throws(HLSError) -> SteeringManifest {
        let raw: Raw
        do { raw = try JSONDecoder().decode(Raw.self, from: Data(bytes)) } catch {
            throw HLSError(.invalidSteeringManifest, "The steering manifest is not a JSON object of the steering format.", cause: nil)
        }
        guard let version = raw.version else { throw HLSError(.invalidSteeringManifest, "The steering manifest has no VERSION.") }
        guard version == 1 else { throw HLSError(.invalidSteeringManifest, "The steering manifest has VERSION \(version); only 1 is known.") }
        guard let ttl = raw.ttl, ttl.isFinite, ttl > 0 else {
            throw HLSError(.invalidSteeringManifest, "The steering manifest's TTL is missing or not a positive number.")
        }
        guard let priority = raw.pathwayPriority, !priority.isEmpty else {
            throw HLSError(.invalidSteeringManifest, "The steering manifest's PATHWAY-PRIORITY is missing or empty.")
        }
        guard Set(priority).count == priority.count else {
            throw HLSError(.invalidSteeringManifest, "The steering manifest's PATHWAY-PRIORITY repeats a pathway.")
        }
        if let bad = priority.first(where: { !isPathwayID($0) }) {
            throw HLSError(.invalidSteeringManifest, "The steering manifest's PATHWAY-PRIORITY has an invalid pathway ID (\(bad.prefix(40).count) characters).")
        }
        var clones: [PathwayClone] = []
        for clone in raw.pathwayClones ?? [] {
            guard let base = clone.baseId, let id = clone.id, isPathwayID(id), let replacement = clone.uriReplacement else {
                throw HLSError(.invalidSteeringManifest, "A PATHWAY-CLONES entry lacks BASE-ID, a valid ID or URI-REPLACEMENT.")
            }
            clones.append(PathwayClone(baseId: base, id: id, host: replacement.host, params: replacement.params ?? [:],
                                       perVariantURIs: replacement.perVariantURIs ?? [:], perRenditionURIs: replacement.perRenditionURIs ?? [:]))
        }
        return SteeringManifest(ttl: ttl, reloadURI: raw.reloadURI, pathwayPriority: priority, clones: clones)
    }

    /// A pathway ID: non-empty, `[a-zA-Z0-9._-]`.
    public static func isPathwayID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
    }

    private struct Raw: Decodable {
        let version: Double?
        let ttl: Double?
        let reloadURI: String?
        let pathwayPriority: [String]?
        let pathwayClones: [RawClone]?

        enum CodingKeys: String, CodingKey {
            case version = "VERSION", ttl = "TTL", reloadURI = "RELOAD-URI", pathwayPriority = "PATHWAY-PRIORITY"
            case pathwayClones = "PATHWAY-CLONES"
        }
    }

    private struct RawClone: Decodable {
        let baseId: String?
        let id: String?
        let uriReplacement: RawReplacement?

        enum CodingKeys: String, CodingKey { case baseId = "BASE-ID", id = "ID", uriReplacement = "URI-REPLACEMENT" }
    }

    private struct RawReplacement: Decodable {
        let host: String?
        let params: [String: String]?
        let perVariantURIs: [String: String]?
        let perRenditionURIs: [String: String]?

        enum CodingKeys: String, CodingKey {
            case host = "HOST", params = "PARAMS", perVariantURIs = "PER-VARIANT-URIS", perRenditionURIs = "PER-RENDITION-URIS"
        }
    }
}
