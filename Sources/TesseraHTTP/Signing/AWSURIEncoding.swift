/// URI encoding as AWS Signature Version 4 asks: every byte of the UTF-8 text but the RFC 3986
/// unreserved characters (`A–Z a–z 0–9 - . _ ~`) as `%XX` with upper-case hex; `/` kept only in
/// paths.
enum AWSURIEncoding {
    static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x2F where keepingSlashes: out.append("/")
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
