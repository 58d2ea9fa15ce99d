import Foundation

/// Files of this repository that tests read (docs, fixtures, fuzz corpora), by path from its root.
public enum RepositoryFiles {
    /// The repository's root folder.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The file at `path` from the root, e.g. "docs/DIAGNOSTICS.md".
    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// The UTF-8 text of the file at `path` from the root.
    public static func text(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }
}
