import Foundation
import Testing
import TesseraHLS
import TesseraMedia
import TesseraTestSupport

@Suite("SingleFileDownload across EXT-X-DISCONTINUITY (MPEG-TS rebasing)")
struct DiscontinuityDownloadTests {
    /// a_ts_vod's segments in the order `order`, with EXT-X-DISCONTINUITY before each index in
    /// `breaks`: time and continuity counters jump back at every break.
    static func origin(_ order: [Int], breaks: Set<Int>) throws -> (TemporaryDirectory, DownloadHarness) {
        let tree = try TemporaryDirectory()
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (position, segment) in order.enumerated() {
            if breaks.contains(position) { playlist += "#EXT-X-DISCONTINUITY\n" }
            playlist += "#EXTINF:1.000000,\nseg_00\(segment).ts\n"
        }
        playlist += "#EXT-X-ENDLIST\n"
        try tree.write("index.m3u8", Array(playlist.utf8))
        for index in Set(order) { try tree.write("seg_00\(index).ts", try FixtureStore.bytes("a_ts_vod/seg_00\(index).ts")) }
        return (tree, try DownloadHarness(root: tree.url))
    }

    static let order = [2, 3, 0, 1, 2]
    static let breaks: Set<Int> = [2, 4]

    @Test("runs that jump back in time become one continuous stream: the strict validator and ffmpeg accept it")
    func rebased() async throws {
        let (tree, harness) = try Self.origin(Self.order, breaks: Self.breaks)
        defer { withExtendedLifetime(tree) {} }
        let report = try await harness.download("/index.m3u8")
        let written = try harness.written()
        let input = try Self.order.flatMap { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
        #expect(written.count == input.count && report.segmentCount == 5)
        let firstRun = try FixtureStore.bytes("a_ts_vod/seg_002.ts") + FixtureStore.bytes("a_ts_vod/seg_003.ts")
        #expect(Array(written[..<firstRun.count]) == firstRun)   // the first run is untouched
        var strict = TSValidator()                                 // joined with no discontinuity allowed
        strict.consume(written)
        #expect(strict.finish().filter { $0.severity == .error }.isEmpty)
        var naive = TSValidator()
        naive.consume(input)
        #expect(!naive.finish().filter { $0.severity == .error }.isEmpty)
        // Scripts/bootstrap.sh installs ffmpeg; a machine without it fails here rather than skip.
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"))
        let decode = try ExternalProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", harness.destination.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
    }

    @Test("a job interrupted inside a moved run resumes to the same bytes")
    func resumeInsideRun() async throws {
        let (referenceTree, reference) = try Self.origin(Self.order, breaks: Self.breaks)
        defer { withExtendedLifetime(referenceTree) {} }
        _ = try await reference.download("/index.m3u8")
        let expected = try reference.written()
        let (tree, harness) = try Self.origin(Self.order, breaks: Self.breaks)
        defer { withExtendedLifetime(tree) {} }
        // The 5th resource (seg_002 again) starts the third run; fail the second fetch of seg_001
        // instead, inside the second run.
        harness.origin.inject(.status(404), path: "/seg_001.ts", attempts: 1...1)
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        #expect(await harness.failure("/index.m3u8", options: options)?.code == .httpStatus)
        let report = try await harness.download("/index.m3u8", options: options)
        #expect(report.resumedResources == 3)
        #expect(try harness.written() == expected)
    }

    @Test("a discontinuity that changes the video configuration (g: 160x90@25 to 320x180@30) is refused, nothing published")
    func configurationChange() async throws {
        let harness = try DownloadHarness()
        let error = await harness.failure("/g_discontinuity/index.m3u8")
        #expect(error?.code == .unsupported && error?.message.contains("video configuration") == true)
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("a run whose program differs (other PIDs) is refused")
    func programChange() throws {
        var first = try FixtureStore.bytes("a_ts_vod/seg_000.ts")
        var second = try FixtureStore.bytes("a_ts_vod/seg_001.ts")
        var rebaser = TSTimestampRebaser()
        try rebaser.rebase(&first, startsRun: false)
        // Move the PMT's elementary PID 0x100 to 0x150 in the second run (a valid table: CRC redone).
        for at in stride(from: 0, to: second.count, by: 188) where second[at + 1] & 0x40 != 0 {
            let pid = UInt16(second[at + 1] & 0x1F) << 8 | UInt16(second[at + 2])
            guard pid == 0x1000 else { continue }
            let start = at + 5 + Int(second[at + 4])    // after the pointer field
            let end = start + 3 + (Int(second[start + 1] & 0x0F) << 8 | Int(second[start + 2]))
            for i in start..<end - 5 where second[i] == 0xE1 && second[i + 1] == 0x00 { second[i + 1] = 0x50 }
            let crc = MPEG2CRC32.checksum(Array(second[start..<end - 4]))
            for k in 0..<4 { second[end - 4 + k] = UInt8(crc >> (24 - 8 * k) & 0xFF) }
        }
        #expect(throws: MediaError.self) { try rebaser.rebase(&second, startsRun: true) }
    }
}
