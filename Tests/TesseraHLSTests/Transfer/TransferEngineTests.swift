import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraSupport
import TesseraTestSupport

@Suite("The transfer engine: memory, spill files, keys, deadlines")
struct TransferEngineTests {
    @Test("a body over the in-memory limit or the budget moves to a spill file; its reservation is returned", arguments: [4096, 1 << 20])
    func collectorSpills(budget: Int) throws {
        let folder = try TemporaryDirectory()
        let memory = MemoryBudget(limit: UInt64(budget))
        let collector = BodyCollector(expected: nil, budget: memory, inMemoryLimit: 8192, maximumBytes: 1 << 20, spillFolder: folder.url.path)
        for part in 0..<5 { try collector.append(Array(repeating: UInt8(part), count: 3000)) }
        let body = collector.finish()
        guard case .spilled(let file) = body else { Issue.record("kept \(body.count) bytes in memory"); return }
        #expect(memory.used == 0)
        #expect(file.size == 15_000)
        var read: [UInt8] = []
        try body.forEachChunk(4096) { read += $0 }
        #expect(read == (0..<5).flatMap { Array(repeating: UInt8($0), count: 3000) })
        let path = file.path
        _ = consume body
        _ = consume file
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a small body stays in memory and holds its bytes of the budget until it is dropped")
    func collectorKeeps() throws {
        let memory = MemoryBudget(limit: 1 << 20)
        do {
            let collector = BodyCollector(expected: 5000, budget: memory, inMemoryLimit: 8192, maximumBytes: 1 << 20, spillFolder: "/nonexistent")
            try collector.append(Array(repeating: 1, count: 5000))
            let body = collector.finish()
            #expect(memory.used == 5000)
            if case .spilled = body { Issue.record("spilled") }
        }
        #expect(memory.used == 0)
        let tooLarge = BodyCollector(expected: nil, budget: memory, inMemoryLimit: 8192, maximumBytes: 100, spillFolder: "/nonexistent")
        #expect(throws: HTTPError.self) { try tooLarge.append(Array(repeating: 1, count: 101)) }
    }

    @Test("every resource spilled (TS, rebased TS, AES-128 TS, fMP4): the output is byte-identical to the in-memory run",
          arguments: ["/a_ts_vod/index.m3u8", "/index.m3u8", "/c_ts_aes_iv/index.m3u8", "/b_fmp4_video/index.m3u8",
                      "/c_fmp4_aes/enc_encinit.m3u8"])
    func spilledOutputsMatch(path: String) async throws {
        // "/index.m3u8": a_ts_vod's segments across two discontinuities, rebased.
        let (tree, rebased) = try DiscontinuityDownloadTests.origin(DiscontinuityDownloadTests.order, breaks: DiscontinuityDownloadTests.breaks)
        defer { withExtendedLifetime(tree) {} }
        let harness = path == "/index.m3u8" ? rebased : try DownloadHarness()
        let inMemory = try await harness.download(path, to: harness.output.url.appendingPathComponent("memory.out"))
        var options = SingleFileDownload.Options()
        options.maximumInMemoryResourceBytes = 512
        let spilled = try await harness.download(path, to: harness.output.url.appendingPathComponent("spilled.out"), options: options)
        #expect(spilled.sha256 == inMemory.sha256 && spilled.byteCount == inMemory.byteCount)
        #expect(try harness.leftovers() == ["memory.out", "spilled.out"])
    }

    @Test("each key URI is fetched once while cached; an evicted key is fetched again; a 15-byte key is bad-key")
    func keyCache() async throws {
        let mock = MockTransport()
        let base = URL(string: "https://keys.example/media.m3u8")!
        for name in ["a", "b", "c"] { mock.stub(URL(string: "https://keys.example/\(name)")!, .ok(Array(repeating: 7, count: 16))) }
        mock.stub(URL(string: "https://keys.example/short")!, .ok(Array(repeating: 7, count: 15)))
        let client = HLSClient(transport: mock, clock: ImmediateClock())
        let fetcher = client.fetcher(events: nil)
        let cache = KeyCache(fetcher: fetcher, resolver: PlaylistURLResolver(playlistURL: base), capacity: 2)
        func key(_ name: String) async throws(HLSError) -> KeyCache.Key { try await cache.key(KeyReference(uri: name, stream: .main)) }
        async let first = key("a")
        async let second = key("a")
        let (one, two) = try await (first, second)
        #expect(one.bytes == two.bytes && one.fingerprint == KeyCache.fingerprint(Array(repeating: 7, count: 16)))
        _ = try await key("b")
        _ = try await key("a")
        #expect(mock.requests.count == 2)
        _ = try await key("c")    // evicts b, the least recently used
        _ = try await key("b")
        #expect(mock.requests.filter { $0.url.lastPathComponent == "b" }.count == 2)
        do {
            _ = try await key("short")
            Issue.record("accepted a 15-byte key")
        } catch {
            #expect(error.code == .badKey)
        }
    }

    @Test("a resource slower than its deadline fails when the job's clock passes it, and is not retried past the policy")
    func deadline() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.stall(afterBytes: 1000), path: "/d_ts_single/media.ts")
        let clock = ManualClock()
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        let client = HLSClient(transport: harness.transport, configuration: configuration, clock: clock)
        var options = SingleFileDownload.Options()
        options.maximumCoalescedBytes = 1 << 30
        options.resourceDeadline = ResourceDeadline()
        let job = SingleFileDownload(playlistURL: harness.origin.url("/d_ts_single/index.m3u8"), destination: harness.destination,
                                     client: client, options: options)
        let run = Task { () async -> HLSError? in
            do throws(HLSError) { _ = try await job.run(); return nil } catch { return error }
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(3600))
        let error = await run.value
        #expect(error?.code == .fetchFailed && error?.message.contains("deadline") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: harness.destination.path))
    }

    @Test("the limit of a known size: headroom plus its bytes at the minimum rate")
    func deadlineLimit() {
        let deadline = ResourceDeadline()
        #expect(deadline.limit(forBytes: 0) == .seconds(30))
        #expect(deadline.limit(forBytes: 16 << 10) == .seconds(31))
        #expect(deadline.limit(forBytes: 10 << 20) == .seconds(30 + 640))
    }
}
