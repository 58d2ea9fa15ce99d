import Foundation
import Testing
import TesseraSupport
import TesseraTestSupport

@Suite("StagingFile")
struct StagingFileTests {
    @Test("keepBoth publishes beside an existing file under the first free numbered name")
    func keepBoth() throws {
        let temporary = try TemporaryDirectory()
        let destination = try temporary.write("clip.ts", [1])
        try temporary.write("clip (1).ts", [2])
        let staging = try StagingFile(destination: destination, policy: .keepBoth)
        try staging.append([3])
        let published = try staging.commit()
        #expect(published.lastPathComponent == "clip (2).ts")
        #expect(try Data(contentsOf: destination) == Data([1]))
        #expect(try Data(contentsOf: published) == Data([3]))
    }

    @Test("a resumable partial file keeps its bytes across opens; reads and cut-backs see them")
    func resumable() throws {
        let temporary = try TemporaryDirectory()
        let destination = temporary.url.appendingPathComponent("out.ts")
        let partial = temporary.url.appendingPathComponent(".out.ts.partial").path
        do {
            let file = try StagingFile(destination: destination, policy: .refuse, resumableAt: partial)
            try file.append([1, 2, 3, 4])
            file.keep()
        }
        let file = try StagingFile(destination: destination, policy: .refuse, resumableAt: partial)
        #expect(file.size == 4 && file.read(at: 1, count: 2) == [2, 3] && file.read(at: 3, count: 2) == nil)
        try file.truncate(to: 2)
        try file.append([9])
        try file.commit()
        #expect(try Data(contentsOf: destination) == Data([1, 2, 9]))
    }
}
