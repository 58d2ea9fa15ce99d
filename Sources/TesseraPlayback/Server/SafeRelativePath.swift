/// A request path made safe to resolve beneath a root directory: no empty, `.` or `..` segments,
/// no backslash or NUL, no leading `//`. What remains is relative (no leading `/`). One pass over
/// the UTF-8 bytes.
struct SafeRelativePath {
    let value: String

    /// nil when `path` could escape the root or names the root itself.
    init?(_ path: String) {
        let bytes = path.utf8
        guard bytes.count > 1, bytes.first == UInt8(ascii: "/") else { return nil }
        var segmentLength = 0
        var dots = 0
        for byte in bytes.dropFirst() {
            switch byte {
            case UInt8(ascii: "/"):
                guard segmentLength > 0, !(dots == segmentLength && dots <= 2) else { return nil }
                segmentLength = 0
                dots = 0
            case 0, UInt8(ascii: "\\"):
                return nil
            default:
                segmentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        guard segmentLength > 0, !(dots == segmentLength && dots <= 2) else { return nil }
        value = String(path.dropFirst())
    }
}
