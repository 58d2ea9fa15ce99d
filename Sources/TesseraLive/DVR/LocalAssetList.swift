#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS

/// The asset list a recording writes for an interstitial's X-ASSET-LIST (App. D.2): the packaged
/// assets in order, each URI relative to the list (package-local: the source's are absolute),
/// with the source list's durations and SKIP-CONTROL.
struct LocalAssetList: Encodable {
    struct Asset: Encodable {
        let uri: String
        let duration: Double
        enum CodingKeys: String, CodingKey { case uri = "URI", duration = "DURATION" }
    }

    struct SkipControl: Encodable {
        let offset: Double?
        let duration: Double?
        let labelId: String?
        enum CodingKeys: String, CodingKey { case offset = "OFFSET", duration = "DURATION", labelId = "LABEL-ID" }
    }

    let assets: [Asset]
    let skipControl: SkipControl?
    enum CodingKeys: String, CodingKey { case assets = "ASSETS", skipControl = "SKIP-CONTROL" }

    /// Its JSON.
    /// - Throws: `invalid-external-resource` when it cannot be encoded (a non-finite duration):
    ///   the interstitial is then omitted, never listed empty.
    func encoded() throws(HLSError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return Array(try encoder.encode(self)) } catch {
            throw HLSError(.invalidExternalResource, "The local asset list cannot be written: \(error).")
        }
    }
}
