import Foundation
import Testing
import TesseraSupport
import TesseraTestSupport

@Suite("Bytes put in front of a file without copying it (FALLOC_FL_INSERT_RANGE)")
struct DurableFileFrontTests {
    /// A staged file holding `body`, under `parent` (the system temporary folder when nil).
    static func staged(_ body: [UInt8], under parent: URL? = nil) throws -> (StagingFile, TemporaryDirectory) {
        let folder = try TemporaryDirectory(under: parent)
        let file = try StagingFile(destination: folder.url.appendingPathComponent("movie.mp4"), policy: .refuse)
        try file.append(body)
        return (file, folder)
    }

    @Test("a header of whole blocks is put in front where the filesystem inserts; else nothing changes and the caller copies")
    func inserts() throws {
        let body = TemporaryDirectory.pattern(count: 3 * 65_536 + 123)
        let (file, folder) = try Self.staged(body)
        let block = file.filesystemBlock
        #expect(block > 0)
        let header = TemporaryDirectory.pattern(count: 2 * block, seed: 9)
        let inserted = try file.insertAtFront(header)
        let expected = inserted ? header + body : body
        #expect(file.read(at: 0, count: Int(file.size)) == expected)
        #expect(file.size == UInt64(expected.count))
        _ = folder
    }

    @Test("a header that is not whole blocks, or an empty one, or an empty file, is refused and the file left as it was")
    func refusesPartialBlocks() throws {
        let body = TemporaryDirectory.pattern(count: 10_000)
        let (file, folder) = try Self.staged(body)
        #expect(try !file.insertAtFront([1, 2, 3]))
        #expect(try !file.insertAtFront([]))
        #expect(file.read(at: 0, count: Int(file.size)) == body)
        let (empty, other) = try Self.staged([])
        #expect(try !empty.insertAtFront([UInt8](repeating: 0, count: max(empty.filesystemBlock, 1))))
        #expect(empty.size == 0)
        _ = (folder, other)
    }

    @Test("on tmpfs, which cannot insert, it says so and changes nothing", .enabled(if: FileManager.default.fileExists(atPath: "/dev/shm")))
    func tmpfs() throws {
        let body = TemporaryDirectory.pattern(count: 50_000)
        let (file, folder) = try Self.staged(body, under: URL(fileURLWithPath: "/dev/shm"))
        #expect(try !file.insertAtFront([UInt8](repeating: 7, count: file.filesystemBlock)))
        #expect(file.read(at: 0, count: Int(file.size)) == body)
        _ = folder
    }
}

@Suite("Pieces appended where they lie (writev)")
struct DurableFilePiecesTests {
    @Test("more pieces than one call takes, empty ones among them, land in order")
    func manyPieces() throws {
        let source = TemporaryDirectory.pattern(count: 300_000)
        var pieces: [ArraySlice<UInt8>] = []
        var at = 0
        var size = 1
        while at < source.count {
            let end = min(source.count, at + size)
            pieces.append(source[at..<end])
            if pieces.count % 7 == 0 { pieces.append(source[at..<at]) }
            at = end
            size = size % 977 + 13
        }
        #expect(pieces.count > 512, "more than one writev")
        let (file, folder) = try DurableFileFrontTests.staged([9, 9])
        try file.append(pieces: pieces)
        try file.append(pieces: [])
        #expect(file.read(at: 0, count: Int(file.size)) == [9, 9] + source)
        _ = folder
    }
}
