import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraTestSupport
import TesseraSupport

@Suite("SingleFileDownload over the loopback origin")
struct SingleFileDownloadTests {
    @Test("AES-128 with an explicit IV decrypts to the clear reference, published atomically",
          arguments: ["/c_ts_aes_iv/index.m3u8", "/c_ts_aes_noiv/index.m3u8", "/a_ts_vod/index.m3u8", "/d_ts_single/index.m3u8"])
    func matchesClearReference(path: String) async throws {
        let harness = try DownloadHarness()
        let report = try await harness.download(path)
        let reference = try DownloadHarness.clearReference()
        #expect(try harness.written() == reference)
        #expect(report.sha256 == SHA256Hasher.hash(reference))
        #expect(report.segmentCount == 4 && report.byteCount == UInt64(reference.count))
        #expect(try harness.leftovers() == ["out.ts"])
    }

    @Test("a run on the plan a dry plan just made loads the playlist no more than a plain run and writes the same file")
    func runOnPlanned() async throws {
        let plain = try DownloadHarness()
        let expected = try await plain.download("/a_ts_vod/index.m3u8")
        let plainLoads = plain.origin.attempts("/a_ts_vod/index.m3u8")
        let harness = try DownloadHarness()
        var options = SingleFileDownload.Options()
        options.resourceDeadline = nil
        let job = SingleFileDownload(playlistURL: harness.origin.url("/a_ts_vod/index.m3u8"), destination: harness.destination, client: harness.client, options: options)
        let planned = try await job.planned()
        #expect(harness.origin.attempts("/a_ts_vod/index.m3u8") == 1)
        let report = try await job.run(planned: planned) { _ in }
        #expect(harness.origin.attempts("/a_ts_vod/index.m3u8") == plainLoads, "the plan's loading counts as the run's own")
        #expect(report.sha256 == expected.sha256 && report.segmentCount == 4)
        #expect(try harness.written() == DownloadHarness.clearReference())
    }

    @Test("each key URI is fetched once per job; contiguous byte ranges are coalesced up to the request cap")
    func requests() async throws {
        let harness = try DownloadHarness()
        _ = try await harness.download("/c_ts_aes_noiv/index.m3u8")
        #expect(harness.origin.attempts("/c_ts_aes_noiv/key.bin") == 1)
        let other = try DownloadHarness()
        let report = try await other.download("/d_ts_single/index.m3u8")
        let ranges = other.origin.log.filter { $0.path == "/d_ts_single/media.ts" }.compactMap(\.range)
        #expect(ranges == ["bytes=0-\(report.byteCount - 1)"])
        #expect(report.plan.requests == 1 && report.plan.knownBytes == report.byteCount)
        let capped = try DownloadHarness()
        var options = SingleFileDownload.Options()
        options.maximumCoalescedBytes = 20_000
        _ = try await capped.download("/d_ts_single/index.m3u8", options: options)
        let split = capped.origin.log.filter { $0.path == "/d_ts_single/media.ts" }.compactMap(\.range)
        // Requests run in parallel: the log's order is the arrival order, not the plan's.
        #expect(split.count == 4 && split.contains("bytes=0-19739"))
        #expect(try capped.written() == DownloadHarness.clearReference())
    }

    @Test("an unreachable origin fails with fetch-failed and leaves nothing behind")
    func unreachable() async throws {
        let harness = try DownloadHarness()
        let refusing = try RefusingPort()
        let port = refusing.port
        defer { withExtendedLifetime(refusing) {} }
        do {
            _ = try await SingleFileDownload(playlistURL: URL(string: "http://127.0.0.1:\(port)/x.m3u8")!,
                                             destination: harness.destination, transport: harness.transport).run()
            Issue.record("expected failure")
        } catch {
            #expect(error.code == .fetchFailed)
            #expect(error.message.contains("127.0.0.1:\(port)/x.m3u8"))
        }
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("a 404 segment fails with http-status naming the segment; nothing is published, the work so far is kept")
    func missingSegment() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.status(404), path: "/c_ts_aes_iv/seg_002.ts")
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        let error = await harness.failure("/c_ts_aes_iv/index.m3u8", options: options)
        #expect(error?.code == .httpStatus)
        #expect(error?.message.contains("Segment 2") == true && error?.message.contains("seg_002.ts") == true)
        #expect(error?.message.contains("404") == true)
        #expect(try harness.leftovers() == DownloadHarness.keptState)
    }

    @Test("a wrong key fails with decrypt-failed or malformed-media and nothing is published")
    func wrongKey() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.replaceBody([UInt8](repeating: 0x42, count: 16)), path: "/c_ts_aes_iv/key.bin")
        let error = await harness.failure("/c_ts_aes_iv/index.m3u8")
        #expect(error?.code == .decryptFailed || error?.code == .malformedMedia)
        // Segments are decrypted in parallel: whichever fails first names itself.
        #expect(error?.message.contains("Segment ") == true)
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("a key that is not 16 bytes (an HTML error page) fails with bad-key")
    func badKey() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.replaceBody(Array("<html>denied</html>".utf8)), path: "/c_ts_aes_iv/key.bin")
        let error = await harness.failure("/c_ts_aes_iv/index.m3u8")
        #expect(error?.code == .badKey)
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("a document that is not a playlist fails with invalid-playlist")
    func notAPlaylist() async throws {
        let harness = try DownloadHarness()
        let error = await harness.failure("/a_ts_vod/seg_000.ts")
        #expect(error?.code == .invalidPlaylist)
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("warnings of the published file come with the report (audio-only TS: PCR every ~363 ms, media.md F10)")
    func warningsReported() async throws {
        let harness = try DownloadHarness()
        let report = try await harness.download("/e_multivariant/audio/index.m3u8")
        #expect(report.findings.contains { $0.id == "ts-pcr-interval" && $0.severity == .warning })
        #expect(!report.findings.contains { $0.severity == .error })
        let clean = try DownloadHarness()
        #expect(try await clean.download("/a_ts_vod/index.m3u8").findings.filter { $0.severity != .info }.isEmpty)
    }

    @Test("a segment whose EXTINF does not match its media is a ts-extinf-mismatch warning in the report")
    func durationMismatch() async throws {
        let tree = try TemporaryDirectory()
        for index in 0..<4 { try tree.write("seg_00\(index).ts", try FixtureStore.bytes("a_ts_vod/seg_00\(index).ts")) }
        let playlist = String(decoding: try FixtureStore.bytes("a_ts_vod/index.m3u8"), as: UTF8.self)
        try tree.write("index.m3u8", Array(playlist.replacingOccurrences(of: "#EXTINF:1.000000,\nseg_002", with: "#EXTINF:1.500000,\nseg_002").utf8))
        let harness = try DownloadHarness(root: tree.url)
        let report = try await harness.download("/index.m3u8")
        let mismatches = report.findings.filter { $0.id == "ts-extinf-mismatch" }
        #expect(mismatches.count == 1 && mismatches.first?.severity == .warning)
        #expect(mismatches.first?.message.contains("1.5") == true)
    }

    @Test("a variant whose audio is a separate rendition is refused before any media byte")
    func separateAudio() async throws {
        let harness = try DownloadHarness()
        let error = await harness.failure("/e_multivariant/master.m3u8")
        #expect(error?.code == .unsupported && error?.message.contains("separate rendition") == true)
        #expect(harness.origin.log.allSatisfy { $0.path.hasSuffix(".m3u8") })
    }

    @Test("live playlists are refused before any media byte is fetched")
    func refusedLayouts() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("live.m3u8", Array("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nseg_000.ts\n".utf8))
        try tree.write("seg_000.ts", try FixtureStore.bytes("a_ts_vod/seg_000.ts"))
        let live = try DownloadHarness(root: tree.url)
        let error = await live.failure("/live.m3u8")
        #expect(error?.code == .unsupported && error?.message.contains("live") == true)
        #expect(live.origin.attempts("/seg_000.ts") == 0)
    }

    @Test("a destination under a plain file fails before any request")
    func folderIsAFile() async throws {
        let harness = try DownloadHarness()
        _ = try harness.output.write("plain", [1])
        let error = await harness.failure("/a_ts_vod/index.m3u8",
                                          to: harness.output.url.appendingPathComponent("plain/out.ts"))
        #expect(error?.code == .destinationUnwritable)
        #expect(harness.origin.log.isEmpty)
    }

    @Test("an existing destination is left untouched unless overwriting is asked for")
    func existingDestination() async throws {
        let harness = try DownloadHarness()
        try harness.output.write("out.ts", [1, 2, 3])
        #expect(await harness.failure("/a_ts_vod/index.m3u8")?.code == .destinationExists)
        #expect(try harness.written() == [1, 2, 3])
        var options = SingleFileDownload.Options()
        options.overwrite = .replace
        _ = try await harness.download("/a_ts_vod/index.m3u8", options: options)
        #expect(try harness.written() == DownloadHarness.clearReference())
        #expect(try harness.leftovers() == ["out.ts"])
    }

    @Test("a segment cut mid-body on every attempt fails after the retries; the destination stays empty, the checkpoint stays")
    func truncatedSegment() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.truncate(afterBytes: 5_000), path: "/a_ts_vod/seg_001.ts")
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        let error = await harness.failure("/a_ts_vod/index.m3u8", options: options)
        #expect(error?.code == .fetchFailed)
        #expect((error?.cause as? HTTPError)?.category == .connectionLost)
        #expect(harness.origin.attempts("/a_ts_vod/seg_001.ts") == HLSClient.defaultConfiguration.retry.maximumAttempts)
        #expect(try harness.leftovers() == DownloadHarness.keptState)
    }

    @Test("a segment that is not MPEG-TS fails with malformed-media")
    func notTransportStream() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.replaceBody(Array(repeating: 0x47, count: 100)), path: "/a_ts_vod/seg_003.ts")
        let error = await harness.failure("/a_ts_vod/index.m3u8")
        #expect(error?.code == .malformedMedia)
        #expect(error?.message.contains("Segment 3") == true)
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("cancelling the job leaves nothing at the destination; the next run resumes to the same bytes")
    func cancelled() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.hang, path: "/a_ts_vod/seg_002.ts", attempts: 1...1)
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        let task = Task { try await harness.download("/a_ts_vod/index.m3u8", options: options) }
        while harness.origin.attempts("/a_ts_vod/seg_002.ts") == 0 { await Task.yield() }
        task.cancel()
        let result = await task.result
        if case .failure(let error) = result {
            #expect((error as? HLSError)?.code == .cancelled)
        } else {
            Issue.record("expected cancellation")
        }
        #expect(try harness.leftovers() == DownloadHarness.keptState)
        let report = try await harness.download("/a_ts_vod/index.m3u8")
        #expect(report.resumedResources == 2 && harness.resumedResources == 2)
        #expect(harness.origin.attempts("/a_ts_vod/seg_000.ts") == 1 && harness.origin.attempts("/a_ts_vod/seg_001.ts") == 1)
        #expect(try harness.written() == DownloadHarness.clearReference())
        #expect(try harness.leftovers() == ["out.ts"])
    }
}
