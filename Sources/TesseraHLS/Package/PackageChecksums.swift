/// `manifest-sha256.txt`: one `<sha256>  <path>` line per file of the package but itself, in the
/// format `sha256sum -c` reads, so anyone can check a package with coreutils.
public enum PackageChecksums {
    /// The file name at the package root.
    public static let fileName = "manifest-sha256.txt"

    /// The text for `entries` (path, lower-case hex digest), sorted by path.
    public static func text(_ entries: [(path: String, sha256: String)]) -> String {
        entries.sorted { $0.path < $1.path }.map { "\($0.sha256)  \($0.path)\n" }.joined()
    }

    /// The entries of `text`, or nil when a line is not `<64 hex>  <path>` (or `<hex> *<path>`).
    public static func parse(_ text: String) -> [(path: String, sha256: String)]? {
        var entries: [(path: String, sha256: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let characters = Array(line.utf8)
            guard characters.count > 66, characters[64] == 0x20, characters[65] == 0x20 || characters[65] == 0x2A,
                  characters[0..<64].allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
            entries.append((path: String(decoding: characters[66...], as: UTF8.self), sha256: String(decoding: characters[0..<64], as: UTF8.self)))
        }
        return entries
    }
}
