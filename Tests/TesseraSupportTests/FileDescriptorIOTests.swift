import Foundation
import Testing
import TesseraSupport
import TesseraTestSupport

@Suite("File reads straight into a buffer's tail")
struct FileDescriptorIOTests {
    @Test("a range of a file is appended after what the buffer holds")
    func appends() throws {
        let folder = try TemporaryDirectory()
        let bytes = TemporaryDirectory.pattern(count: 10_000)
        let path = try folder.write("file", bytes).path
        var buffer: [UInt8] = [1, 2, 3]
        try FileDescriptorIO.readRegularFile(path, offset: 4_000, count: 5_000, appendingTo: &buffer)
        #expect(buffer == [1, 2, 3] + bytes[4_000..<9_000])
        try FileDescriptorIO.readRegularFile(path, offset: 9_000, count: 0, appendingTo: &buffer)
        #expect(buffer.count == 5_003, "nothing to read appends nothing")
    }

    @Test("a file holding fewer bytes there, or none, is destination-unwritable and the buffer is left as it was")
    func shortFile() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("file", TemporaryDirectory.pattern(count: 100)).path
        var buffer: [UInt8] = [9]
        #expect(throws: SupportError.self) { try FileDescriptorIO.readRegularFile(path, offset: 50, count: 51, appendingTo: &buffer) }
        #expect(buffer == [9])
        #expect(throws: SupportError.self) { try FileDescriptorIO.readRegularFile(path + ".missing", offset: 0, count: 1, appendingTo: &buffer) }
        #expect(buffer == [9])
    }
}
