#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The payload of a `data:` URI (RFC 2397): base64 when the parameters end in `;base64`, else
/// percent-decoded text.
enum DataURI {
    /// The bytes of `uri`, nil when it is not a well-formed `data:` URI or its payload is over `limit`.
    static func decode(_ uri: String, limit: Int) -> [UInt8]? {
        guard uri.lowercased().hasPrefix("data:"), let comma = uri.firstIndex(of: ",") else { return nil }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = uri[uri.index(after: comma)...]
        guard payload.utf8.count <= limit * 2 else { return nil }
        let bytes: [UInt8]?
        if header.hasSuffix(";base64") {
            bytes = Data(base64Encoded: String(payload)).map { [UInt8]($0) }
        } else {
            bytes = PercentDecoding.decode(payload).map { Array($0.utf8) }
        }
        guard let bytes, bytes.count <= limit else { return nil }
        return bytes
    }
}
