/// A relative path made safe to resolve beneath a root folder: no empty, `.` or `..` segments,
/// no backslash or NUL, not absolute. One pass over the UTF-8 bytes. Opening it beneath a
/// `FolderHandle` also refuses symlinks, so neither a crafted path nor a planted link escapes.
public struct SafeRelativePath: Hashable, Sendable, CustomStringConvertible {
    /// The relative path (`a/b/seg_001.ts`).
    public let value: String

    /// A request path (`/a/b/seg_001.ts`, leading slash required) made relative; nil when it
    /// could escape the root or names the root itself.
    public init?(requestPath path: String) {
        guard path.utf8.count > 1, path.utf8.first == UInt8(ascii: "/") else { return nil }
        self.init(String(path.dropFirst()))
    }

    /// `path` (relative: `a/b/seg_001.ts`); nil when it could escape the root, is empty, or is absolute.
    public init?(_ path: String) {
        guard !path.isEmpty, path.utf8.first != UInt8(ascii: "/") else { return nil }
        var segmentLength = 0
        var dots = 0
        for byte in path.utf8 {
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
        value = path
    }

    /// The folders above the file, outermost first (`a`, `a/b` for `a/b/c.ts`).
    public var parents: [String] {
        var result: [String] = []
        var index = value.startIndex
        while let slash = value[index...].firstIndex(of: "/") {
            result.append(String(value[..<slash]))
            index = value.index(after: slash)
        }
        return result
    }

    public var description: String { value }
}
