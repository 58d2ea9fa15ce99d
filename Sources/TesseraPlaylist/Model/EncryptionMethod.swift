/// The `METHOD` of an `EXT-X-KEY` (RFC 8216bis §4.4.4.4).
public enum EncryptionMethod: Hashable, Sendable, CustomStringConvertible {
    /// Not encrypted.
    case none
    /// Whole-resource AES-128-CBC with PKCS#7 padding.
    case aes128
    /// Sample encryption (per-sample, inside the container).
    case sampleAES
    /// Sample encryption in CTR mode.
    case sampleAESCTR
    /// Whole-resource AES-256-GCM (RFC 8216bis §4.4.4.4).
    case aes256GCM
    /// A method this version does not know, kept verbatim.
    case other(String)

    init(_ text: String) {
        switch text {
        case "NONE": self = .none
        case "AES-128": self = .aes128
        case "SAMPLE-AES": self = .sampleAES
        case "SAMPLE-AES-CTR": self = .sampleAESCTR
        case "AES-256-GCM": self = .aes256GCM
        default: self = .other(text)
        }
    }

    public var description: String {
        switch self {
        case .none: "NONE"
        case .aes128: "AES-128"
        case .sampleAES: "SAMPLE-AES"
        case .sampleAESCTR: "SAMPLE-AES-CTR"
        case .aes256GCM: "AES-256-GCM"
        case .other(let text): text
        }
    }
}
