import Foundation

/// A fresh directory under the system temporary folder, removed on deinit.
public final class TemporaryDirectory: @unchecked Sendable {
    /// Its URL.
    public let url: URL

    /// Creates the directory under `parent` (the system temporary folder when nil).
    public init(under parent: URL? = nil) throws {
        url = (parent ?? FileManager.default.temporaryDirectory).appendingPathComponent("tessera-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to `path` (relative), creating folders.
    @discardableResult
    public func write(_ path: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file
    }

    /// Deterministic pseudo-random bytes.
    public static func pattern(count: Int, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var out = [UInt8](repeating: 0, count: count)
        var i = 0
        while i < count {
            var word = generator.next()
            for _ in 0..<8 where i < count {
                out[i] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                i += 1
            }
        }
        return out
    }
}
