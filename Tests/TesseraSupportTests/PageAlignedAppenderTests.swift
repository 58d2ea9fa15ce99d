#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TesseraSupport
import TesseraTestSupport

@Suite("PageAlignedAppender: bytes in pieces of any size land whole, written in whole pages")
struct PageAlignedAppenderTests {
    @Test("every piece lands once, in order; the file only ever grows to page boundaries until the flush", arguments: [0, 1, 4095, 4096, 10_000])
    func alignedWrites(start: Int) throws {
        let page = sysconf(Int32(_SC_PAGESIZE))
        let folder = try TemporaryDirectory()
        let existing = TemporaryDirectory.pattern(count: start, seed: 7)
        let url = try folder.write("file.bin", existing)
        let descriptor = open(url.path, O_RDWR | O_APPEND)
        #expect(descriptor >= 0)
        let file = DurableFile(descriptor: descriptor, path: url.path)
        var appender = PageAlignedAppender(file.appender, size: file.size)
        var generator = SeededGenerator(seed: UInt64(start))
        var expected = existing
        var sizes: Set<UInt64> = []
        for round in 0..<300 {
            let count = [0, 1, 7, 4095, 4096, 4097, 16_384, 65_483, 120 << 10].randomElement(using: &generator)!
            let piece = TemporaryDirectory.pattern(count: count, seed: UInt64(round))
            try piece.withUnsafeBytes { raw in try appender.append(raw) }
            expected += piece
            sizes.insert(file.size)
        }
        #expect(sizes.allSatisfy { $0 == UInt64(start) || $0 % UInt64(page) == 0 })
        #expect(file.size <= UInt64(expected.count) && UInt64(expected.count) - file.size < UInt64(page))
        try appender.flush()
        file.close()
        #expect(try Data(contentsOf: url) == Data(expected))
    }

    @Test("a write that fails throws destination-unwritable, from a piece and from the flush")
    func failures() throws {
        let full = DurableFile(descriptor: open("/dev/full", O_WRONLY), path: "/dev/full")
        var appender = PageAlignedAppender(full.appender, size: 0)
        let page = [UInt8](repeating: 1, count: 1 << 20)
        let error = #expect(throws: SupportError.self) { try page.withUnsafeBytes { raw in try appender.append(raw) } }
        #expect(error?.code == .destinationUnwritable)
        var tail = PageAlignedAppender(full.appender, size: 0)
        try [UInt8]([1, 2, 3]).withUnsafeBytes { raw in try tail.append(raw) }   // waits for its page
        #expect(throws: SupportError.self) { try tail.flush() }
    }
}
