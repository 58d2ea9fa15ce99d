import Foundation
import Testing
import TesseraSupport
import TesseraTestSupport

@Suite("A regular file read a piece at a time")
struct RegularFileReaderTests {
    @Test("pieces of any size append the whole file after what the buffer holds, then report the end")
    func pieces() throws {
        let folder = try TemporaryDirectory()
        let bytes = TemporaryDirectory.pattern(count: 10_000)
        let path = try folder.write("file", bytes).path
        for size in [1, 7, 4096, 10_000, 1 << 20] {
            let reader = try RegularFileReader(path: path, limit: 10_000)
            var buffer: [UInt8] = [1, 2]
            var pieces = 0
            while try reader.read(appendingTo: &buffer, upTo: size) { pieces += 1 }
            #expect(buffer == [1, 2] + bytes)
            #expect(pieces == (10_000 + size - 1) / size)
            #expect(try !reader.read(appendingTo: &buffer, upTo: size), "the end stays the end")
        }
        let empty = try RegularFileReader(path: try folder.write("empty", []).path, limit: 10)
        var buffer: [UInt8] = []
        #expect(try !empty.read(appendingTo: &buffer, upTo: 10) && buffer.isEmpty)
    }

    @Test("a missing file, a folder, or a file over the limit is refused when opened")
    func refused() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("file", TemporaryDirectory.pattern(count: 100)).path
        #expect(throws: SupportError.self) { try RegularFileReader(path: path + ".missing", limit: 1000) }
        #expect(throws: SupportError.self) { try RegularFileReader(path: folder.url.path, limit: 1000) }
        #expect(throws: SupportError.self) { try RegularFileReader(path: path, limit: 99) }
    }

    @Test("a file cut short while it is read is an error, and the buffer keeps only what was read before")
    func truncatedWhileRead() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("file", TemporaryDirectory.pattern(count: 1000)).path
        let reader = try RegularFileReader(path: path, limit: 1000)
        var buffer: [UInt8] = []
        #expect(try reader.read(appendingTo: &buffer, upTo: 400))
        #expect(truncate(path, 500) == 0)
        #expect(throws: SupportError.self) { try reader.read(appendingTo: &buffer, upTo: 400) }
        #expect(buffer.count == 400)
    }
}
