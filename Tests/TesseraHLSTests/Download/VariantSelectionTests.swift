import Foundation
import Testing
import TesseraHLS
import TesseraTestSupport

@Suite("SingleFileDownload variant selection")
struct VariantSelectionTests {
    /// A multivariant playlist over copies of two fixtures: lo (a_ts_vod, 160x90) and hi
    /// (c_ts_aes_iv, 320x180), plus an audio group whose only rendition is in the variant stream.
    static func origin() throws -> (TemporaryDirectory, DownloadHarness) {
        let tree = try TemporaryDirectory()
        for (folder, fixture, files) in [("lo", "a_ts_vod", ["index.m3u8"]), ("hi", "c_ts_aes_iv", ["index.m3u8", "key.bin"])] {
            for file in files + (0..<4).map({ "seg_00\($0).ts" }) {
                try tree.write("\(folder)/\(file)", try FixtureStore.bytes("\(fixture)/\(file)"))
            }
        }
        try tree.write("master.m3u8", Array("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="main",DEFAULT=YES
            #EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x180,AUDIO="aud"
            hi/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=100000,RESOLUTION=160x90,AUDIO="aud"
            lo/index.m3u8

            """.utf8))
        return (tree, try DownloadHarness(root: tree.url))
    }

    static func plan(_ harness: DownloadHarness, _ preference: VariantPreference) async throws(HLSError) -> DownloadPlanSummary {
        var options = SingleFileDownload.Options()
        options.variant = preference
        return try await SingleFileDownload(playlistURL: harness.origin.url("/master.m3u8"), destination: harness.destination,
                                            transport: harness.transport, options: options).plan()
    }

    @Test("best, lowest, max-height and max-bandwidth choose as documented; the plan names the variant")
    func choices() async throws {
        let (tree, harness) = try Self.origin()
        defer { withExtendedLifetime(tree) {} }
        #expect(try await Self.plan(harness, .best).variant == "320x180, 300.0 kb/s")
        #expect(try await Self.plan(harness, .lowest).variant == "160x90, 100.0 kb/s")
        #expect(try await Self.plan(harness, .maximumHeight(179)).variant == "160x90, 100.0 kb/s")
        #expect(try await Self.plan(harness, .maximumBandwidth(300_000)).keys == 1)
        do {
            _ = try await Self.plan(harness, .maximumBandwidth(50_000))
            Issue.record("expected no-matching-variant")
        } catch {
            #expect(error.code == .noMatchingVariant)
        }
        #expect(harness.origin.log.allSatisfy { $0.path.hasSuffix(".m3u8") })
    }

    @Test("the best variant downloads, decrypted, to the clear reference")
    func downloadsBest() async throws {
        let (tree, harness) = try Self.origin()
        defer { withExtendedLifetime(tree) {} }
        let report = try await harness.download("/master.m3u8")
        #expect(report.plan.variant == "320x180, 300.0 kb/s")
        #expect(try harness.written() == DownloadHarness.clearReference())
    }
}
