/// UTF-8 percent-encoding with an explicit set of bytes left literal (RFC 3986 §2.1, uppercase
/// hex digits).
enum PercentEncoding {
    /// RFC 3986 unreserved characters.
    static let unreserved = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Appends `text` encoded; with `spaceAsPlus`, a space becomes `+` (form encoding).
    static func append(_ text: some StringProtocol, allowed: ByteSet, spaceAsPlus: Bool = false, to out: inout [UInt8]) {
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.append(byte)
            } else if spaceAsPlus, byte == 0x20 {
                out.append(0x2B)
            } else {
                appendEscaped(byte, to: &out)
            }
        }
    }

    /// Appends `%XX` for `byte`.
    static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(0x25)
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 15)])
    }

    /// `text` encoded.
    static func encode(_ text: some StringProtocol, allowed: ByteSet) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        append(text, allowed: allowed, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
