import Foundation
import Testing
import TesseraHLS
@testable import TesseraMedia
import TesseraTestSupport

@Suite("SingleFileDownload of fMP4")
struct FragmentedMP4DownloadTests {
    /// The init once, then each segment without its styp/sidx boxes (media.md F11).
    static func expected(init initPath: String, segments: [String]) throws -> [UInt8] {
        var bytes = try FixtureStore.bytes(initPath)
        for path in segments { bytes += try MP4SegmentAssembly.segment(try FixtureStore.bytes(path)) }
        return bytes
    }

    @Test("separate init and segments become one file that passes the validator, styp and sidx dropped")
    func separateFiles() async throws {
        let harness = try DownloadHarness()
        let destination = harness.output.url.appendingPathComponent("video.mp4")
        let report = try await harness.download("/b_fmp4_video/index.m3u8", to: destination)
        let written = [UInt8](try Data(contentsOf: destination))
        let expected = try Self.expected(init: "b_fmp4_video/init.mp4", segments: (0..<4).map { "b_fmp4_video/seg_00\($0).m4s" })
        #expect(written == expected)
        #expect(report.plan.container == "fmp4" && report.segmentCount == 4)
        var validator = MP4Validator()
        #expect(validator.validate(MP4MemorySource(written)).filter { $0.severity != .info }.isEmpty)
        #expect(!Self.topLevelTypes(written).contains("sidx") && !Self.topLevelTypes(written).contains("styp"))
    }

    @Test("AES-128 fMP4: the init decrypts with the key in force at EXT-X-MAP (explicit IV), segments with their sequence IVs",
          arguments: ["/c_fmp4_aes/enc_encinit.m3u8", "/c_fmp4_aes/enc_clearinit.m3u8"])
    func encrypted(path: String) async throws {
        let harness = try DownloadHarness()
        let destination = harness.output.url.appendingPathComponent("out.mp4")
        _ = try await harness.download(path, to: destination)
        let expected = try Self.expected(init: "c_fmp4_aes/clear_init.mp4", segments: (7...10).map { "c_fmp4_aes/clear_0\(String(format: "%02d", $0)).m4s" })
        #expect([UInt8](try Data(contentsOf: destination)) == expected)
        #expect(harness.origin.attempts("/c_fmp4_aes/key.bin") == 1)
    }

    @Test("a single-file fMP4 with byte ranges: the map and all fragments come in one coalesced request")
    func byteRanges() async throws {
        let harness = try DownloadHarness()
        let destination = harness.output.url.appendingPathComponent("single.mp4")
        let report = try await harness.download("/d_fmp4_single/index.m3u8", to: destination)
        #expect(report.plan.requests == 1 && report.plan.resources == 5)
        let written = [UInt8](try Data(contentsOf: destination))
        var validator = MP4Validator()
        #expect(validator.validate(MP4MemorySource(written)).filter { $0.severity == .error }.isEmpty)
        #expect(!Self.topLevelTypes(written).contains("sidx"))
        #expect(Self.topLevelTypes(written).filter { $0 == "moof" }.count == 4)
    }

    @Test("a wrong fMP4 key is caught by the box walk after decryption; nothing is published or kept")
    func wrongKey() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.replaceBody(Array(repeating: 7, count: 16)), path: "/c_fmp4_aes/key.bin")
        let error = await harness.failure("/c_fmp4_aes/enc_clearinit.m3u8")
        #expect(error?.code == .decryptFailed || error?.code == .malformedMedia)
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("fragment numbers that restart in a later segment are renumbered so they keep increasing")
    func renumbered() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("index.m3u8", try FixtureStore.bytes("b_fmp4_video/index.m3u8"))
        try tree.write("init.mp4", try FixtureStore.bytes("b_fmp4_video/init.mp4"))
        for index in 0..<4 {
            var segment = try FixtureStore.bytes("b_fmp4_video/seg_00\(index).m4s")
            let at = try #require(MP4SegmentAssembly.FragmentNumbering.sequenceOffsets(segment).first)
            if index == 2 { segment[at] = 0; segment[at + 1] = 0; segment[at + 2] = 0; segment[at + 3] = 1 }   // a packager restart
            try tree.write("seg_00\(index).m4s", segment)
        }
        let harness = try DownloadHarness(root: tree.url)
        let destination = harness.output.url.appendingPathComponent("out.mp4")
        let report = try await harness.download("/index.m3u8", to: destination)
        let written = [UInt8](try Data(contentsOf: destination))
        var validator = MP4Validator()
        #expect(validator.validate(MP4MemorySource(written)).filter { $0.severity != .info }.isEmpty)
        let numbers = MP4SegmentAssembly.FragmentNumbering.sequenceOffsets(written).map { UInt32(written[$0 + 3]) }
        #expect(numbers.count == 4 && zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 })
        #expect(!report.findings.contains { $0.id == "mp4-sequence" })
    }

    static func topLevelTypes(_ bytes: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }
}
