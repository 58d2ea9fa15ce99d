import Foundation
import TesseraMedia
import TesseraSupport

/// The committed fixtures, checked against `Fixtures/manifest.json` on every load.
public enum FixtureStore {
    /// One manifest entry.
    public struct Entry: Decodable, Sendable {
        /// Path under `Fixtures/`.
        public let path: String
        /// Pinned SHA-256, hex.
        public let sha256: String
        /// Pinned size.
        public let bytes: Int
        /// How it was made.
        public let made: String
        /// What it exercises.
        public let exercises: String
    }

    private struct Manifest: Decodable {
        let schema: Int
        let files: [Entry]
    }

    /// A fixture that differs from its pin, or a manifest that cannot be read.
    public struct PinError: Error, CustomStringConvertible {
        /// What is wrong.
        public let description: String
    }

    /// The `Fixtures/` folder of this checkout.
    public static let root: URL = RepositoryFiles.url("Fixtures")

    /// The manifest's entries.
    /// - Throws: `PinError` when the manifest is missing or malformed.
    public static func entries() throws -> [Entry] {
        let url = root.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PinError(description: "Fixtures/manifest.json is missing")
        }
        do {
            let manifest = try JSONDecoder().decode(Manifest.self, from: data)
            guard manifest.schema == 1 else { throw PinError(description: "manifest schema \(manifest.schema) is not 1") }
            return manifest.files
        } catch let error as PinError {
            throw error
        } catch {
            throw PinError(description: "Fixtures/manifest.json is malformed: \(error)")
        }
    }

    /// The manifest paths of every fixture playlist (`.m3u8`), in manifest order.
    /// - Throws: `PinError` when the manifest is missing or malformed.
    public static func playlistPaths() throws -> [String] {
        try entries().map(\.path).filter { $0.hasSuffix(".m3u8") }
    }

    /// The bytes of `path`, after checking size and SHA-256 against the manifest.
    /// - Throws: `PinError` when the file is missing, unpinned, or differs from its pin.
    public static func bytes(_ path: String) throws -> [UInt8] {
        guard let entry = try entries().first(where: { $0.path == path }) else {
            throw PinError(description: "\(path) is not in Fixtures/manifest.json")
        }
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
            throw PinError(description: "Fixtures/\(path) is missing")
        }
        let bytes = [UInt8](data)
        let digest = SHA256Hasher.hash(bytes)
        guard bytes.count == entry.bytes, digest == SHA256Digest(hex: entry.sha256) else {
            throw PinError(description: "Fixtures/\(path) differs from its pin (\(bytes.count) bytes, sha256 \(digest.hex))")
        }
        return bytes
    }

    /// Every regular file under `Fixtures/` except the manifest, as relative paths, sorted.
    public static func filesOnDisk() -> [String] {
        let base = root.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var out: [String] = []
        while let next = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + next, isDirectory: &isDirectory), !isDirectory.boolValue,
               next != "manifest.json" {
                out.append(next)
            }
        }
        return out.sorted()
    }
}
