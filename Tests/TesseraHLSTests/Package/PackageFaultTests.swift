import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraSupport
import TesseraTestSupport

@Suite("Package faults: keys, changed sources between runs, refusals before any media byte")
struct PackageFaultTests {
    static let aes = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS=\"avc1.4d400d\"\n../c_ts_aes_iv/index.m3u8\n"

    static func harness() throws -> PackageHarness { try PackageHarness(extra: ["t/aes.m3u8": aes]) }

    @Test("AES-128 media is stored decrypted: the segments join into the clear reference, and no key is kept")
    func decrypted() async throws {
        let harness = try Self.harness()
        _ = try await harness.job("/t/aes.m3u8").run()
        let files = try harness.published()
        let joined = (0..<4).flatMap { files["video/seg_00\($0).ts"] ?? [] }
        #expect(joined == (try FixtureStore.bytes("d_ts_single/media.ts")))
        #expect(files.keys.allSatisfy { !$0.contains("key") })
        #expect(!String(decoding: try #require(files["video/index.m3u8"]), as: UTF8.self).contains("KEY"))
        #expect(PackageStore(folder: harness.destination).verify().isVerified)
    }

    @Test("a wrong key fails the job with a typed error and leaves nothing, not even a checkpoint")
    func wrongKey() async throws {
        let harness = try Self.harness()
        harness.origin.inject(.replaceBody(Array(repeating: 0x42, count: 16)), path: "/c_ts_aes_iv/key.bin")
        await #expect { try await harness.job("/t/aes.m3u8").run() } throws: { error in
            [HLSError.Code.decryptFailed, .malformedMedia].contains((error as? HLSError)?.code)
        }
        #expect(!FileManager.default.fileExists(atPath: harness.destination.path))
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("a segment 500 bytes short (its HTTP framing correct) is fetched again, twice, then the package refused with the finding — nothing at the destination")
    func shortSegment() async throws {
        let harness = try PackageHarness()
        let full = try FixtureStore.bytes("e_multivariant/lo/seg_001.ts")
        harness.origin.inject(.replaceBody(Array(full.dropLast(500))), path: "/e_multivariant/lo/seg_001.ts")
        var options = PackageDownload.Options()
        options.selection.variant = .lowest
        await #expect { try await harness.job("/e_multivariant/master.m3u8", options: options).run() } throws: { error in
            guard let error = error as? HLSError, error.code == .malformedMedia else { return false }
            return error.message.contains("is not valid MPEG-TS: error ts-partial-packet") && error.message.hasSuffix("(fetched 3 times)")
        }
        #expect(harness.origin.attempts("/e_multivariant/lo/seg_001.ts") == 3)
        #expect(!FileManager.default.fileExists(atPath: harness.destination.path))
    }

    @Test("a segment short once and whole when fetched again is packaged whole, as is an fMP4 segment whose mdat was cut")
    func shortOnce() async throws {
        let harness = try PackageHarness(extra: ["t/fmp4.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS=\"avc1.4d400d\"\n../b_fmp4_video/index.m3u8\n"])
        let segment = try FixtureStore.bytes("b_fmp4_video/seg_002.m4s")
        harness.origin.inject(.replaceBody(Array(segment.dropLast(500))), path: "/b_fmp4_video/seg_002.m4s", attempts: 1...1)
        _ = try await harness.job("/t/fmp4.m3u8").run()
        #expect(try harness.published()["video/seg_002.m4s"] == segment)
        #expect(harness.origin.attempts("/b_fmp4_video/seg_002.m4s") == 2)
    }

    @Test("a key that changed between runs discards the checkpoint of media decrypted with the old one")
    func changedKey() async throws {
        let harness = try Self.harness()
        harness.origin.inject(.status(404), path: "/c_ts_aes_iv/seg_003.ts", attempts: 1...1)
        await #expect(throws: HLSError.self) { try await harness.job("/t/aes.m3u8").run() }
        try harness.root.write("c_ts_aes_iv/key.bin", Array(repeating: 0x24, count: 16))
        let events = PackageHarness.Events()
        await #expect(throws: HLSError.self) { try await harness.job("/t/aes.m3u8").run(events: events.record) }
        #expect(events.all.contains(.checkpointDiscarded(reason: "a key changed since the checkpoint was written")))
    }

    @Test("a playlist that changed between runs is a new plan: the old checkpoint is discarded")
    func changedPlaylist() async throws {
        let harness = try PackageHarness()
        harness.origin.inject(.status(404), path: "/e_multivariant/audio/seg_003.ts", attempts: 1...1)
        await #expect(throws: HLSError.self) { try await harness.job("/e_multivariant/master.m3u8").run() }
        let audio = try String(contentsOf: harness.root.url.appendingPathComponent("e_multivariant/audio/index.m3u8"), encoding: .utf8)
        try harness.root.write("e_multivariant/audio/index.m3u8", Array(audio.replacingOccurrences(of: "#EXTINF:0.021333,\nseg_004.ts\n", with: "").utf8))
        let events = PackageHarness.Events()
        let report = try await harness.job("/e_multivariant/master.m3u8").run(events: events.record)
        #expect(events.all.contains { if case .checkpointDiscarded = $0 { true } else { false } })
        #expect(report.resumedResources == 0)
        #expect(report.manifest.tracks[1].segments == 4)
        #expect(PackageStore(folder: harness.destination).verify().isVerified)
    }

    @Test("refused before any media byte, with the reason", arguments: [
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n../a_ts_vod/seg_000.ts\n", "live playlist"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n#EXTINF:1,\n../a_ts_vod/seg_000.ts\n#EXT-X-ENDLIST\n", "SAMPLE-AES"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n#EXTINF:1,\n../a_ts_vod/seg_000.ts\n#EXT-X-ENDLIST\n", "DRM"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:1,\n#EXT-X-BYTERANGE:100@0\n../a_ts_vod/seg_000.ts\n#EXT-X-ENDLIST\n", "encrypted byte range"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXTINF:1,\n#EXT-X-BYTERANGE:100@0\nb.ts\n#EXTINF:1,\n#EXT-X-BYTERANGE:100@100\na.ts\n#EXT-X-ENDLIST\n", "interleaved files"),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXTINF:1,\n#EXT-X-BYTERANGE:100@50\na.ts\n#EXT-X-ENDLIST\n", "overlapping ranges"),
    ])
    func refusals(_ media: String, _ what: String) async throws {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nmedia.m3u8\n"
        let harness = try PackageHarness(extra: ["t/master.m3u8": master, "t/media.m3u8": media])
        await #expect("\(what)") { try await harness.job("/t/master.m3u8").run() } throws: { error in
            (error as? HLSError)?.code == .unsupported
        }
        #expect(harness.origin.log.allSatisfy { $0.path.hasSuffix(".m3u8") }, "no media byte was fetched for \(what)")
        #expect(!FileManager.default.fileExists(atPath: harness.destination.path))
        #expect(try harness.hiddenFiles().isEmpty)
    }
}
