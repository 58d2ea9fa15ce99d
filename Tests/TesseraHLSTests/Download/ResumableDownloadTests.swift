import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraMedia
import TesseraTestSupport
import TesseraSupport

@Suite("SingleFileDownload resume, admission and faults")
struct ResumableDownloadTests {
    /// Runs a job that fails on seg_002 (404 on every attempt) with one request in flight, so
    /// segments 0 and 1 are written and checkpointed.
    static func interrupted(_ harness: DownloadHarness, path: String = "/a_ts_vod/index.m3u8") async throws {
        harness.origin.inject(.status(404), path: path.replacingOccurrences(of: "index.m3u8", with: "seg_002.ts"), attempts: 1...1)
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        #expect(await harness.failure(path, options: options)?.code == .httpStatus)
        #expect(try harness.leftovers() == DownloadHarness.keptState)
    }

    @Test("503 with Retry-After, a dropped connection and a short body are retried; the result is exact; retries are events")
    func transientFaults() async throws {
        let harness = try DownloadHarness()
        var headers = HTTPHeaders()
        headers.add("Retry-After", "2")
        harness.origin.inject(.status(503, headers), path: "/c_ts_aes_iv/seg_000.ts", attempts: 1...1)
        harness.origin.inject(.dropConnection, path: "/c_ts_aes_iv/seg_001.ts", attempts: 1...1)
        harness.origin.inject(.truncate(afterBytes: 3_000), path: "/c_ts_aes_iv/seg_002.ts", attempts: 1...1)
        harness.origin.inject(.status(503), path: "/c_ts_aes_iv/key.bin", attempts: 1...1)
        let report = try await harness.download("/c_ts_aes_iv/index.m3u8")
        #expect(try harness.written() == DownloadHarness.clearReference())
        #expect(report.sha256 == SHA256Hasher.hash(try DownloadHarness.clearReference()))
        let retries = harness.events.compactMap { event -> String? in
            if case .retry(let url, _, _, _) = event { url } else { nil }
        }
        // A connection dropped before any reply may be retried inside libcurl (a dead reused
        // connection, for a GET); the others go through the retry policy and are events.
        #expect(Set(retries.map { String($0.split(separator: "/").last ?? "") }).isSuperset(of: ["seg_000.ts", "seg_002.ts", "key.bin"]))
        #expect(harness.origin.attempts("/c_ts_aes_iv/seg_001.ts") == 2)
        #expect(harness.clock.sleeps.contains(.seconds(2)))
        #expect(harness.origin.attempts("/c_ts_aes_iv/key.bin") == 2)
    }

    @Test("a resumed job verifies the checkpoint, fetches only what is missing and ends byte-identical")
    func resume() async throws {
        let harness = try DownloadHarness()
        try await Self.interrupted(harness, path: "/c_ts_aes_iv/index.m3u8")
        let report = try await harness.download("/c_ts_aes_iv/index.m3u8")
        #expect(report.resumedResources == 2)
        #expect(harness.origin.attempts("/c_ts_aes_iv/seg_000.ts") == 1)
        #expect(harness.origin.attempts("/c_ts_aes_iv/seg_003.ts") == 1)
        #expect(try harness.written() == DownloadHarness.clearReference())
        #expect(report.sha256 == SHA256Hasher.hash(try DownloadHarness.clearReference()))
        #expect(try harness.leftovers() == ["out.ts"])
    }

    @Test("a damaged partial file is cut back to the last resource whose digest still matches")
    func damagedPartial() async throws {
        let harness = try DownloadHarness()
        try await Self.interrupted(harness)
        let partial = harness.output.url.appendingPathComponent(".out.ts.tessera-partial")
        var bytes = [UInt8](try Data(contentsOf: partial))
        let firstSegment = try FixtureStore.bytes("a_ts_vod/seg_000.ts").count
        bytes[firstSegment + 500] ^= 0xFF
        try Data(bytes).write(to: partial)
        let report = try await harness.download("/a_ts_vod/index.m3u8")
        #expect(report.resumedResources == 1)
        #expect(harness.origin.attempts("/a_ts_vod/seg_001.ts") == 2)
        #expect(try harness.written() == DownloadHarness.clearReference())
    }

    @Test("a playlist changed between runs discards the checkpoint and starts over, to the new playlist's bytes")
    func changedPlaylist() async throws {
        let tree = try TemporaryDirectory()
        for index in 0..<4 { try tree.write("seg_00\(index).ts", try FixtureStore.bytes("a_ts_vod/seg_00\(index).ts")) }
        let playlist = String(decoding: try FixtureStore.bytes("a_ts_vod/index.m3u8"), as: UTF8.self)
        try tree.write("index.m3u8", Array(playlist.utf8))
        let harness = try DownloadHarness(root: tree.url)
        try await Self.interrupted(harness, path: "/index.m3u8")
        // Another plan: the last segment is gone.
        try tree.write("index.m3u8", Array(playlist.replacingOccurrences(of: "#EXTINF:1.000000,\nseg_003.ts\n", with: "").utf8))
        let report = try await harness.download("/index.m3u8")
        #expect(harness.events.contains { if case .checkpointDiscarded(let reason) = $0 { reason.contains("plan changed") } else { false } })
        #expect(harness.resumedResources == nil && report.resumedResources == 0 && report.segmentCount == 3)
        #expect(harness.origin.attempts("/seg_000.ts") == 2)
        #expect(try harness.written() == (0..<3).flatMap { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") })
    }

    @Test("resume turned off discards the checkpoint and fetches everything again")
    func noResume() async throws {
        let harness = try DownloadHarness()
        try await Self.interrupted(harness)
        var options = SingleFileDownload.Options()
        options.resumes = false
        let report = try await harness.download("/a_ts_vod/index.m3u8", options: options)
        #expect(report.resumedResources == 0)
        #expect(harness.origin.attempts("/a_ts_vod/seg_000.ts") == 2)
        #expect(try harness.written() == DownloadHarness.clearReference())
    }

    @Test("a second job on the same destination is refused while the first runs")
    func admission() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.hang, path: "/a_ts_vod/seg_001.ts", attempts: 1...1)
        let first = Task { try await harness.download("/a_ts_vod/index.m3u8") }
        while harness.origin.attempts("/a_ts_vod/seg_001.ts") == 0 { await Task.yield() }
        #expect(await harness.failure("/a_ts_vod/index.m3u8")?.code == .destinationBusy)
        first.cancel()
        _ = await first.result
        _ = try await harness.download("/a_ts_vod/index.m3u8")
        #expect(try harness.written() == DownloadHarness.clearReference())
    }

    @Test("a symlink planted at the partial, checkpoint or lock path is never followed: the job fails, the target is untouched",
          arguments: [".out.ts.tessera-partial", ".out.ts.tessera-checkpoint", ".out.ts.tessera-lock"])
    func plantedSymlink(name: String) async throws {
        let harness = try DownloadHarness()
        let victim = try harness.output.write("victim.txt", Array("precious".utf8))
        try FileManager.default.createSymbolicLink(atPath: harness.output.url.appendingPathComponent(name).path,
                                                   withDestinationPath: victim.path)
        let error = await harness.failure("/a_ts_vod/index.m3u8")
        #expect(error?.code == .destinationUnwritable)
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
        #expect(!FileManager.default.fileExists(atPath: harness.destination.path))
    }

    @Test("byte budgets: a plan over the job budget is refused before media; a resource over its budget fails")
    func budgets() async throws {
        let harness = try DownloadHarness()
        var options = SingleFileDownload.Options()
        options.maximumJobBytes = 10_000
        #expect(await harness.failure("/d_ts_single/index.m3u8", options: options)?.code == .budgetExceeded)
        #expect(harness.origin.attempts("/d_ts_single/media.ts") == 0)
        options = SingleFileDownload.Options()
        options.maximumResourceBytes = 10_000
        #expect(await harness.failure("/a_ts_vod/index.m3u8", options: options)?.code == .budgetExceeded)
        #expect(try harness.leftovers().isEmpty)
        // A byte range over the resource budget is refused before any media request.
        #expect(await harness.failure("/d_ts_single/index.m3u8", options: options)?.code == .budgetExceeded)
        #expect(harness.origin.attempts("/d_ts_single/media.ts") == 0)
    }

    @Test("the plan names container, requests and known size without touching the destination")
    func dryRunPlan() async throws {
        let harness = try DownloadHarness()
        let job = SingleFileDownload(playlistURL: harness.origin.url("/d_ts_single/index.m3u8"), destination: harness.destination,
                                     transport: harness.transport)
        let plan = try await job.plan()
        #expect(plan.container == "mpeg-ts" && plan.segments == 4 && plan.requests == 1 && plan.keys == 0)
        #expect(plan.knownBytes == UInt64(try DownloadHarness.clearReference().count))
        #expect(try harness.leftovers().isEmpty)
        #expect(harness.origin.log.map(\.path) == ["/d_ts_single/index.m3u8"])
    }
}
