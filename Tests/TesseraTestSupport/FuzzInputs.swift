import Foundation

/// The saved fuzz inputs of one target: its seed corpus and every crash input found so far
/// (each fixed, and replayed by `swift test` so it stays fixed).
public enum FuzzInputs {
    /// The fuzz package's folder.
    public static let root = RepositoryFiles.url("QualityGates/Fuzz")

    /// The files of `target`'s corpus and crash folders.
    public static func files(_ target: String) -> [URL] {
        ["corpus", "crashes"].flatMap { kind -> [URL] in
            let folder = root.appendingPathComponent(kind).appendingPathComponent(target)
            // A target may have no crash folder yet; replay tests assert their corpus is not empty.
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
        }
    }

    /// The bytes of every input of `target`.
    public static func inputs(_ target: String) throws -> [[UInt8]] {
        try files(target).map { [UInt8](try Data(contentsOf: $0)) }
    }
}
