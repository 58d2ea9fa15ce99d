#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// The bundled fixtures: where they are, and their pinned SHA-256 values.
struct FixtureFolder {
    let url: URL
    private let pins: [String: String]

    private struct Manifest: Decodable {
        struct File: Decodable {
            let path: String
            let sha256: String
        }
        let files: [File]
    }

    /// A problem with the fixture folder.
    struct Problem: Error {
        let message: String
    }

    /// Opens `explicit`, or finds `Fixtures/` from the working folder or beside the executable.
    init(explicit: URL?) throws(Problem) {
        let candidates = explicit.map { [$0] } ?? Self.searchPath()
        guard let folder = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("manifest.json").path)
        }) else {
            throw Problem(message: "no Fixtures/manifest.json found (looked in \(candidates.map(\.path).joined(separator: ", "))); pass --fixtures <folder>")
        }
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("manifest.json").path) else {
            throw Problem(message: "\(folder.path)/manifest.json cannot be read")
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw Problem(message: "\(folder.path)/manifest.json is malformed: \(error)")
        }
        url = folder
        pins = Dictionary(manifest.files.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
    }

    /// The pinned digest of `path`.
    func pin(_ path: String) throws(Problem) -> SHA256Digest {
        guard let hex = pins[path], let digest = SHA256Digest(hex: hex) else {
            throw Problem(message: "\(path) is not pinned in the fixture manifest")
        }
        return digest
    }

    /// Checks `path` on disk against its pin.
    func verify(_ path: String) throws(Problem) {
        guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(path).path) else {
            throw Problem(message: "fixture \(path) is missing")
        }
        guard SHA256Hasher.hash([UInt8](data)) == (try pin(path)) else {
            throw Problem(message: "fixture \(path) differs from its pinned SHA-256")
        }
    }

    private static func searchPath() -> [URL] {
        var out = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Fixtures")]
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            out.append(folder.appendingPathComponent("Fixtures"))
            folder = folder.deletingLastPathComponent()
        }
        return out
    }
}
