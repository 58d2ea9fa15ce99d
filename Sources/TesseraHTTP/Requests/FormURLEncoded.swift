/// `application/x-www-form-urlencoded` bodies (WHATWG URL §5): names and values UTF-8
/// percent-encoded, space as `+`, pairs joined with `&` in the given order.
public enum FormURLEncoded {
    /// The encoded body.
    public static func encode(_ pairs: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(0x26) }
            append(pair.0, to: &out)
            out.append(0x3D)
            append(pair.1, to: &out)
        }
        return out
    }

    /// The media type to send with it.
    public static let contentType = "application/x-www-form-urlencoded"

    /// The bytes WHATWG's form encoding leaves literal.
    private static let literal = ByteSet("*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    private static func append(_ text: String, to out: inout [UInt8]) {
        PercentEncoding.append(text.utf8, allowed: literal, spaceAsPlus: true, to: &out)
    }
}
