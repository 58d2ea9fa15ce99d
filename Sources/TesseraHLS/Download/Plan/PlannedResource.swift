import Foundation
import TesseraHTTP

/// One resource of a download plan: the initialization section (fMP4) or a media segment, with
/// its absolute URL, byte range and AES-128 parameters.
struct PlannedResource: Sendable {
    /// What the resource is.
    enum Kind: String, Sendable {
        case initialization = "map"
        case segment
    }

    /// Position in the plan (the order of the output file).
    let index: Int
    let kind: Kind
    let url: URL
    let range: ByteRange?
    let encryption: ResourceEncryption?
    /// Whether an EXT-X-DISCONTINUITY comes before it.
    let startsDiscontinuity: Bool
    /// EXTINF seconds (0 for an initialization section).
    let duration: Double
    /// How messages name it: "Segment 3 (line 17)", "Initialization section (line 5)".
    let label: String
}

/// How a resource is encrypted: whole-resource AES-128-CBC with PKCS#7 padding.
struct ResourceEncryption: Sendable, Hashable {
    let keyURL: URL
    let iv: [UInt8]
}
