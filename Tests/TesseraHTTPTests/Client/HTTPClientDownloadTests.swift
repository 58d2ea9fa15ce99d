import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport
import TesseraSupport

private struct File: Endpoint {
    typealias Response = HTTPNoContent
    var path: String
    var cancellationTag: String? = "downloads"
}

/// Progress values seen, in order.
private final class ProgressLog: Sendable {
    let values = Lock<[TransferProgress]>([])
    func record(_ progress: TransferProgress) { values.withLock { $0.append(progress) } }
}

@Suite("HTTPClient downloads over libcurl")
struct HTTPClientDownloadTests {
    private func client(_ harness: TransportHarness, _ clock: ImmediateClock = ImmediateClock(),
                        _ adjust: (inout HTTPClientConfiguration) -> Void = { _ in }) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        configuration.pipeline.retry.jitter = 0
        adjust(&configuration)
        return try HTTPClient(baseURL: harness.origin.baseURL, configuration: configuration, transport: harness.transport, clock: clock)
    }

    private func leftovers(_ folder: URL) -> [String] {
        // A folder that does not exist holds no leftovers.
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
    }

    @Test("parent folders are created, the bytes are exact, progress climbs to the announced size",
          arguments: [BodyFileWriting.beside, .inline])
    func downloadsIntoNewFolders(writing: BodyFileWriting) async throws {
        let harness = try TransportHarness()
        let out = try TemporaryDirectory()
        let destination = out.url.appendingPathComponent("a/b/big.bin")
        let log = ProgressLog()
        let metadata = try await client(harness).download(File(path: "big.bin"), to: destination, writing: writing, progress: log.record)
        #expect(try Data(contentsOf: destination) == Data(TransportHarness.big))
        #expect(metadata.status == 200 && metadata.bodyBytes == Int64(TransportHarness.big.count))
        let values = log.values.withLock { $0 }
        #expect(values.last == TransferProgress(completed: Int64(TransportHarness.big.count), expected: Int64(TransportHarness.big.count)))
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.completed < $1.completed })
        #expect(leftovers(destination.deletingLastPathComponent()).isEmpty)
    }

    @Test("an existing destination is refused before any request unless replacing is asked for")
    func existingDestination() async throws {
        let harness = try TransportHarness()
        let out = try TemporaryDirectory()
        let destination = try out.write("small.bin", [1, 2, 3])
        let error = await #expect(throws: HTTPError.self) { try await client(harness).download(File(path: "small.bin"), to: destination) }
        #expect(error?.stage == .file && error?.code == HTTPError.Code("destination-exists"))
        #expect(harness.origin.log.isEmpty)
        #expect(try Data(contentsOf: destination) == Data([1, 2, 3]))
        try await client(harness).download(File(path: "small.bin"), to: destination, overwrite: .replace)
        #expect(try Data(contentsOf: destination) == Data(TransportHarness.small))
    }

    @Test("a body cut off mid-transfer is downloaded again from the start under the retry policy",
          arguments: [BodyFileWriting.beside, .inline])
    func retriedMidBody(writing: BodyFileWriting) async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.truncate(afterBytes: 300_000), path: "/big.bin", attempts: 1...1)
        let out = try TemporaryDirectory()
        let destination = out.url.appendingPathComponent("big.bin")
        let clock = ImmediateClock()
        try await client(harness, clock).download(File(path: "big.bin"), to: destination, writing: writing)
        #expect(try Data(contentsOf: destination) == Data(TransportHarness.big))
        #expect(harness.origin.attempts("/big.bin") == 2 && clock.sleeps.count == 1)
    }

    @Test("a failed download leaves neither the destination nor a partial file", arguments: [BodyFileWriting.beside, .inline])
    func failureLeavesNothing(writing: BodyFileWriting) async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.truncate(afterBytes: 300_000), path: "/big.bin")
        harness.origin.inject(.status(404), path: "/small.bin")
        let out = try TemporaryDirectory()
        let client = try client(harness) { $0.pipeline.retry = .never }
        let cut = await #expect(throws: HTTPError.self) { try await client.download(File(path: "big.bin"), to: out.url.appendingPathComponent("big.bin"), writing: writing) }
        #expect(cut?.stage == .transport && cut?.category == .connectionLost)
        let missing = await #expect(throws: HTTPError.self) { try await client.download(File(path: "small.bin"), to: out.url.appendingPathComponent("small.bin")) }
        #expect(missing?.stage == .status && missing?.status == 404)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.url.path).isEmpty)
    }

    @Test("cancelling by tag mid-body removes the partial file", arguments: [BodyFileWriting.beside, .inline])
    func cancelledMidBody(writing: BodyFileWriting) async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.stall(afterBytes: 500_000), path: "/big.bin")
        let out = try TemporaryDirectory()
        let client = try client(harness)
        let error = await #expect(throws: HTTPError.self) {
            try await client.download(File(path: "big.bin"), to: out.url.appendingPathComponent("big.bin"), writing: writing) { progress in
                if progress.completed >= 400_000 { client.cancel(tag: "downloads") }
            }
        }
        #expect(error?.stage == .cancelled)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.url.path).isEmpty)
    }

    @Test("a download without a destination hands the caller a new temporary file")
    func temporaryFile() async throws {
        let harness = try TransportHarness()
        let (file, metadata) = try await client(harness).download(File(path: "small.bin"))
        defer { try? FileManager.default.removeItem(at: file) }   // cleanup of the caller-owned file
        #expect(try Data(contentsOf: file) == Data(TransportHarness.small) && metadata.bodyBytes == 10_000)
        #expect(file.path.hasPrefix(FileManager.default.temporaryDirectory.path))
    }
}
