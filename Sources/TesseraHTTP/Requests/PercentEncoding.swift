/// UTF-8 percent-encoding with an explicit set of bytes left literal (RFC 3986 §2.1, uppercase
/// hex digits).
enum PercentEncoding {
    /// RFC 3986 unreserved characters.
    static let unreserved = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Appends `bytes` (UTF-8) encoded; with `spaceAsPlus`, a space becomes `+` (form encoding).
    static func append(_ bytes: some Sequence<UInt8>, allowed: ByteSet, spaceAsPlus: Bool = false, to out: inout [UInt8]) {
        for byte in bytes {
            if allowed.contains(byte) {
                out.append(byte)
            } else if spaceAsPlus, byte == 0x20 {
                out.append(0x2B)
            } else {
                out.append(0x25)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 15)])
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
