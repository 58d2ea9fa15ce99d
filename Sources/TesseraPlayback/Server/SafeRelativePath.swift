/// A request path made safe to resolve beneath a root directory: no empty, `.` or `..` segments,
/// no backslash or NUL, no leading `//`. What remains is relative (no leading `/`).
struct SafeRelativePath {
    let value: String

    /// nil when `path` could escape the root or names the root itself.
    init?(_ path: String) {
        guard path.hasPrefix("/"), !path.hasPrefix("//") else { return nil }
        let relative = path.dropFirst()
        guard !relative.isEmpty, !relative.utf8.contains(0), !relative.contains("\\") else { return nil }
        for segment in relative.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, segment != ".", segment != ".." else { return nil }
        }
        value = String(relative)
    }
}
