#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An interstitial asset list (X-ASSET-LIST JSON, draft-pantos-hls-rfc8216bis Appendix D.2):
/// the assets played back to back and the skip control that overrides the tag's.
public struct AssetList: Hashable, Sendable {
    /// One asset.
    public struct Asset: Hashable, Sendable {
        /// URI: the asset's (absolute) multivariant or media playlist.
        public let uri: String
        /// DURATION, seconds.
        public let duration: Double
    }

    /// ASSETS, in playback order (may be empty).
    public let assets: [Asset]
    /// SKIP-CONTROL OFFSET, seconds.
    public let skipControlOffset: Double?
    /// SKIP-CONTROL DURATION, seconds.
    public let skipControlDuration: Double?
    /// SKIP-CONTROL LABEL-ID.
    public let skipControlLabelId: String?

    /// The asset list in `bytes`.
    /// - Throws: `invalid-external-resource` when it is not such a JSON object, an asset lacks
    ///   URI or DURATION, a URI is not absolute or a duration is negative.
    public static func parse(_ bytes: [UInt8]) throws(HLSError) -> AssetList {
        let raw: Raw
        do { raw = try JSONDecoder().decode(Raw.self, from: Data(bytes)) } catch {
            throw HLSError(.invalidExternalResource, "The asset list is not a JSON object with ASSETS.")
        }
        var assets: [Asset] = []
        for (index, asset) in raw.assets.enumerated() {
            guard let uri = asset.uri, let duration = asset.duration else {
                throw HLSError(.invalidExternalResource, "Asset \(index) of the asset list lacks URI or DURATION.")
            }
            guard uri.contains("://") else { throw HLSError(.invalidExternalResource, "Asset \(index)'s URI is not absolute.") }
            guard duration.isFinite, duration >= 0 else { throw HLSError(.invalidExternalResource, "Asset \(index)'s DURATION is negative.") }
            assets.append(Asset(uri: uri, duration: duration))
        }
        return AssetList(assets: assets, skipControlOffset: raw.skipControl?.offset, skipControlDuration: raw.skipControl?.duration,
                         skipControlLabelId: raw.skipControl?.labelId)
    }

    /// The total duration of the assets, seconds.
    public var duration: Double { assets.reduce(0) { $0 + $1.duration } }

    private struct Raw: Decodable {
        let assets: [RawAsset]
        let skipControl: RawSkip?
        enum CodingKeys: String, CodingKey { case assets = "ASSETS", skipControl = "SKIP-CONTROL" }
    }

    private struct RawAsset: Decodable {
        let uri: String?
        let duration: Double?
        enum CodingKeys: String, CodingKey { case uri = "URI", duration = "DURATION" }
    }

    private struct RawSkip: Decodable {
        let offset: Double?
        let duration: Double?
        let labelId: String?
        enum CodingKeys: String, CodingKey { case offset = "OFFSET", duration = "DURATION", labelId = "LABEL-ID" }
    }
}
