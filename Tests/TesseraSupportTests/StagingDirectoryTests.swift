import Foundation
import Testing
import TesseraSupport
import TesseraTestSupport

@Suite("StagingDirectory")
struct StagingDirectoryTests {
    private func write(_ staging: StagingDirectory, _ path: String, _ bytes: [UInt8]) throws {
        let file = try staging.file(at: try #require(SafeRelativePath(path)), contents: .empty)
        try file.append(bytes)
        try file.sync()
    }

    @Test("nothing is at the destination until commit, then the whole tree is")
    func commitPublishesWholeTree() throws {
        let temporary = try TemporaryDirectory()
        let destination = temporary.url.appendingPathComponent("package")
        let staging = try StagingDirectory(destination: destination, policy: .refuse)
        try write(staging, "master.m3u8", Array("#EXTM3U\n".utf8))
        try write(staging, "video/720p/seg_0.ts", [1, 2, 3])
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        let published = try staging.commit()
        #expect(published == destination)
        #expect(try Data(contentsOf: destination.appendingPathComponent("video/720p/seg_0.ts")) == Data([1, 2, 3]))
        #expect(!FileManager.default.fileExists(atPath: staging.stagingPath))
    }

    @Test("refuse keeps an existing destination and removes the staging tree; replace swaps it whole")
    func overwritePolicies() throws {
        let temporary = try TemporaryDirectory()
        let destination = temporary.url.appendingPathComponent("package")
        try temporary.write("package/old.txt", [9])
        #expect(throws: SupportError.self) { try StagingDirectory(destination: destination, policy: .refuse) }
        let racing = try StagingDirectory(destination: destination, policy: .keepBoth)
        try write(racing, "new.txt", [1])
        #expect(try racing.commit().lastPathComponent == "package (1)")
        let replacing = try StagingDirectory(destination: destination, policy: .replace)
        try write(replacing, "new.txt", [2])
        try replacing.commit()
        #expect(!FileManager.default.fileExists(atPath: destination.appendingPathComponent("old.txt").path))
        #expect(try Data(contentsOf: destination.appendingPathComponent("new.txt")) == Data([2]))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("a staging tree dropped without commit is removed; a kept one is reopened with its files")
    func dropAndResume() throws {
        let temporary = try TemporaryDirectory()
        let destination = temporary.url.appendingPathComponent("package")
        var path = ""
        do {
            let staging = try StagingDirectory(destination: destination, policy: .refuse)
            path = staging.stagingPath
            try write(staging, "a.ts", [1])
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        let resumable = temporary.url.appendingPathComponent(".package.tessera-staging").path
        do {
            let staging = try StagingDirectory(destination: destination, policy: .refuse, resumableAt: resumable)
            try write(staging, "a/b.ts", [1, 2])
            staging.keep()
        }
        let reopened = try StagingDirectory(destination: destination, policy: .refuse, resumableAt: resumable)
        let relative = try #require(SafeRelativePath("a/b.ts"))
        #expect(reopened.size(of: relative) == 2)
        let file = try reopened.file(at: relative, contents: .keep)
        try file.append([3])
        #expect(file.read(at: 0, count: 3) == [1, 2, 3])
    }

    @Test("a symlink planted inside the tree is never written through, and removal does not follow it")
    func plantedSymlink() throws {
        let temporary = try TemporaryDirectory()
        let outside = try temporary.write("outside/victim.txt", [7])
        let resumable = temporary.url.appendingPathComponent(".package.tessera-staging")
        let staging = try StagingDirectory(destination: temporary.url.appendingPathComponent("package"), policy: .refuse,
                                           resumableAt: resumable.path)
        try FileManager.default.createSymbolicLink(at: resumable.appendingPathComponent("video"),
                                                   withDestinationURL: outside.deletingLastPathComponent())
        try FileManager.default.createSymbolicLink(at: resumable.appendingPathComponent("seg.ts"), withDestinationURL: outside)
        #expect(throws: SupportError.self) { try staging.file(at: #require(SafeRelativePath("video/victim.txt")), contents: .empty) }
        #expect(throws: SupportError.self) { try staging.file(at: #require(SafeRelativePath("seg.ts")), contents: .empty) }
        staging.discard()
        #expect(try Data(contentsOf: outside) == Data([7]))
        #expect(!FileManager.default.fileExists(atPath: resumable.path))
    }

    @Test("a planted symlink at the staging path itself is refused")
    func plantedStagingLink() throws {
        let temporary = try TemporaryDirectory()
        try temporary.write("elsewhere/x", [1])
        let resumable = temporary.url.appendingPathComponent(".package.tessera-staging")
        try FileManager.default.createSymbolicLink(at: resumable, withDestinationURL: temporary.url.appendingPathComponent("elsewhere"))
        #expect(throws: SupportError.self) {
            try StagingDirectory(destination: temporary.url.appendingPathComponent("package"), policy: .refuse, resumableAt: resumable.path)
        }
    }
}
