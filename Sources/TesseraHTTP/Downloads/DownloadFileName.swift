#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The destination file name policy for downloads: a suggested name is used only when it is a
/// plain, visible file name; anything that could leave the destination folder, hide itself or
/// confuse a shell gets a generated name instead.
public enum DownloadFileName {
    /// The longest name kept, in UTF-8 bytes (the common file-system limit).
    public static let maximumBytes = 255

    /// Whether `name` is safe to create inside a destination folder: non-empty, at most
    /// `maximumBytes`, not starting with `.` (which covers `.` and `..`), and free of `/`, `\`,
    /// NUL and other control characters.
    public static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumBytes, !name.hasPrefix(".") else { return false }
        return !name.unicodeScalars.contains { scalar in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
                || (0x80...0x9F).contains(scalar.value)
        }
    }

    /// Chooses the name for a download: the `Content-Disposition` suggestion, else the URL's
    /// last path segment, each only when safe; otherwise `generated`.
    public static func choose(contentDisposition: String?, url: URL, generated: String = "download") -> String {
        if let suggested = contentDisposition.flatMap(ContentDisposition.fileName), isSafe(suggested) {
            return suggested
        }
        let last = url.path.split(separator: "/").last.map(String.init)
        if let last, isSafe(last) { return last }
        return generated
    }
}
