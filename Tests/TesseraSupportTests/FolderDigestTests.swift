import Foundation
import Testing
import TesseraSupport
import TesseraTestSupport

@Suite("A file's digest, read a chunk ahead of hashing")
struct FolderDigestTests {
    @Test("every size, below and above the read-ahead threshold and at chunk edges, hashes as the bytes do",
          arguments: [0, 1, 1 << 20, (1 << 20) + 1, (4 << 20) - 1, 4 << 20, (9 << 20) + 7])
    func sizes(count: Int) throws {
        let folder = try TemporaryDirectory()
        let bytes = TemporaryDirectory.pattern(count: count)
        _ = try folder.write("file.bin", bytes)
        let handle = try #require(FolderHandle(path: folder.url.path))
        let path = try #require(SafeRelativePath("file.bin"))
        let digest = try #require(handle.digest(of: path))
        #expect(digest.size == UInt64(count))
        #expect(digest.sha256 == SHA256Hasher.hash(bytes))
    }

    @Test("a folder, a missing file or one behind a symlink has no digest")
    func notRegular() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("sub/file.bin", TemporaryDirectory.pattern(count: 5 << 20))
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link.bin").path, withDestinationPath: "sub/file.bin")
        let handle = try #require(FolderHandle(path: folder.url.path))
        for name in ["sub", "missing.bin", "link.bin"] {
            let path = try #require(SafeRelativePath(name))
            #expect(handle.digest(of: path) == nil, "\(name)")
        }
        let file = try #require(SafeRelativePath("sub/file.bin"))
        #expect(handle.digest(of: file)?.size == 5 << 20)
    }
}
