#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TesseraHTTP
import TesseraSupport
import TesseraTestSupport

@Suite("HTTPBody.append(to:): a body written into a file a piece at a time, in whole pages")
struct HTTPBodyFileTests {
    /// A new empty file in `folder`, open for appending.
    private static func file(in folder: TemporaryDirectory) throws -> DurableFile {
        let url = try folder.write("body.bin", [])
        let descriptor = open(url.path, O_RDWR | O_APPEND)
        #expect(descriptor >= 0)
        return DurableFile(descriptor: descriptor, path: url.path)
    }

    /// A file every write to fails (no space left).
    private static func fullDisk() -> DurableFile {
        DurableFile(descriptor: open("/dev/full", O_WRONLY), path: "/dev/full")
    }

    @Test("a source without direct delivery: every byte once, in order; progress rises to the total", arguments: [0, 1, 2])
    func defaultSource(seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        let chunks = [1, 5000, 70_000, 3 << 20, 16_384, 0, 999_999, 12].shuffled(using: &generator).enumerated().map {
            TemporaryDirectory.pattern(count: $0.element, seed: UInt64($0.offset))
        }
        let folder = try TemporaryDirectory()
        let file = try Self.file(in: folder)
        var reports: [Int64] = []
        let total = try await HTTPBody(source: CannedChunks(chunks)).append(to: file) { reports.append($0) }
        file.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == Data(chunks.flatMap { $0 }))
        #expect(total == Int64(chunks.reduce(0) { $0 + $1.count }))
        #expect(reports.last == total && zip(reports, reports.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("an empty body writes nothing and reports no progress")
    func empty() async throws {
        let folder = try TemporaryDirectory()
        let file = try Self.file(in: folder)
        var reports = 0
        #expect(try await HTTPBody(source: CannedChunks([])).append(to: file) { _ in reports += 1 } == 0)
        #expect(file.size == 0 && reports == 0)
    }

    @Test("a real transfer: 4 MiB through small watermarks lands in the file intact")
    func curl() async throws {
        let harness = try TransportHarness()
        let folder = try TemporaryDirectory()
        let file = try Self.file(in: folder)
        let response = try await harness.transport.send(harness.request("/big.bin") {
            $0.limits.bufferHighWatermark = 64 << 10
            $0.limits.bufferLowWatermark = 16 << 10
        })
        var reports: [Int64] = []
        let total = try await response.body.append(to: file) { reports.append($0) }
        file.close()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file.path)))
        #expect(CurlDirectDeliveryTests.compare(bytes, TransportHarness.big) == "intact")
        #expect(total == Int64(TransportHarness.big.count) && reports.last == total)
    }

    @Test("a write that fails (a full disk) ends the read with a file error, from a transfer and from another source")
    func writeFails() async throws {
        let harness = try TransportHarness()
        let response = try await harness.transport.send(harness.request("/big.bin"))
        let error = await #expect(throws: HTTPError.self) { try await response.body.append(to: Self.fullDisk()) }
        #expect(error?.stage == .file && error?.code == HTTPError.Code("destination-unwritable"))
        response.body.discard()
        // The origin serves the next request: the failed transfer let its connection go.
        #expect(try await harness.fetch("/small.bin").1 == TransportHarness.small)

        let source = CannedChunks([[1, 2, 3], [4]])
        var body: HTTPBody? = HTTPBody(source: source)
        await #expect(throws: HTTPError.self) { try await body?.append(to: Self.fullDisk()) }
        body = nil
        #expect(source.abandoned.withLock { $0 })
    }
}
