import Foundation
import Testing
import TesseraHLS
import TesseraMedia
import TesseraTestSupport

@Suite("SingleFileDownload AES-128 key handling")
struct KeyHandlingTests {
    /// c_ts_aes_iv copied into a folder, with the playlist's key and segment lines rewritten.
    static func origin(_ rewrite: (String) -> String) throws -> (TemporaryDirectory, DownloadHarness) {
        let tree = try TemporaryDirectory()
        for file in ["key.bin"] + (0..<4).map({ "seg_00\($0).ts" }) {
            try tree.write(file, try FixtureStore.bytes("c_ts_aes_iv/\(file)"))
        }
        let playlist = String(decoding: try FixtureStore.bytes("c_ts_aes_iv/index.m3u8"), as: UTF8.self)
        try tree.write("index.m3u8", Array(rewrite(playlist).utf8))
        return (tree, try DownloadHarness(root: tree.url))
    }

    static let keyLine = #"#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x000102030405060708090a0b0c0d0e0f"#
    static let drmLine = #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-id",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1""#

    @Test("the identity key is chosen among parallel KEYFORMATs whatever their order",
          arguments: [true, false])
    func parallelKeyFormats(drmFirst: Bool) async throws {
        let (tree, harness) = try Self.origin { playlist in
            playlist.replacingOccurrences(of: Self.keyLine, with: drmFirst ? Self.drmLine + "\n" + Self.keyLine : Self.keyLine + "\n" + Self.drmLine)
        }
        defer { withExtendedLifetime(tree) {} }
        _ = try await harness.download("/index.m3u8")
        #expect(try harness.written() == DownloadHarness.clearReference())
        #expect(harness.origin.attempts("/key.bin") == 1)
    }

    @Test("only a DRM KEYFORMAT, SAMPLE-AES, SAMPLE-AES-CTR: refused with the reason before any media byte",
          arguments: [drmLine, #"#EXT-X-KEY:METHOD=SAMPLE-AES,URI="key.bin",IV=0x000102030405060708090a0b0c0d0e0f"#,
                      #"#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="key.bin",KEYFORMAT="identity""#])
    func refusedKeys(line: String) async throws {
        let (tree, harness) = try Self.origin { $0.replacingOccurrences(of: Self.keyLine, with: line) }
        defer { withExtendedLifetime(tree) {} }
        let error = await harness.failure("/index.m3u8")
        #expect(error?.code == .unsupported)
        #expect(harness.origin.log.map(\.path) == ["/index.m3u8"])
    }

    @Test("keys, signed query values and URLs never reach the checkpoint; retry events redact query values")
    func nothingSecretStored() async throws {
        let (tree, harness) = try Self.origin { playlist in
            playlist.replacingOccurrences(of: "key.bin", with: "key.bin?auth=KEYSECRET")
                .replacingOccurrences(of: ".ts\n", with: ".ts?sig=SEGSECRET\n")
        }
        defer { withExtendedLifetime(tree) {} }
        harness.origin.inject(.status(503), path: "/seg_000.ts", attempts: 1...1)
        harness.origin.inject(.status(404), path: "/seg_002.ts", attempts: 1...1)
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        #expect(await harness.failure("/index.m3u8", options: options)?.code == .httpStatus)
        let checkpoint = String(decoding: try Data(contentsOf: harness.output.url.appendingPathComponent(".out.ts.tessera-checkpoint")), as: UTF8.self)
        let key = try FixtureStore.bytes("c_ts_aes_iv/key.bin").map { String(format: "%02x", $0) }.joined()
        for secret in ["KEYSECRET", "SEGSECRET", key, "127.0.0.1", "seg_00", "key.bin"] {
            #expect(!checkpoint.contains(secret), "checkpoint holds \(secret)")
        }
        let events = harness.events.map { "\($0)" }.joined(separator: "\n")
        #expect(events.contains("retry") && !events.contains("SEGSECRET") && !events.contains("KEYSECRET") && !events.contains(key))
        _ = try await harness.download("/index.m3u8")
        #expect(try harness.written() == DownloadHarness.clearReference())
    }

    @Test("an unusable URI is named in the error without its query (whose values may be signed)")
    func unusableURIRedacted() async throws {
        let (tree, harness) = try Self.origin { $0.replacingOccurrences(of: "seg_001.ts\n", with: "http://[::1?sig=SEGSECRET\n") }
        defer { withExtendedLifetime(tree) {} }
        let error = await harness.failure("/index.m3u8")
        #expect(error?.code == .invalidPlaylist)
        #expect(error?.message.contains("http://[::1") == true && error?.message.contains("SEGSECRET") == false)
    }

    @Test("a key that changed between runs changes the plan fingerprint: the checkpoint is discarded")
    func changedKey() async throws {
        let (tree, harness) = try Self.origin { $0 }
        defer { withExtendedLifetime(tree) {} }
        harness.origin.inject(.status(404), path: "/seg_002.ts", attempts: 1...1)
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        #expect(await harness.failure("/index.m3u8", options: options)?.code == .httpStatus)
        _ = try tree.write("key.bin", Array(repeating: 0x5A, count: 16))
        let error = await harness.failure("/index.m3u8")
        #expect(harness.events.contains { if case .checkpointDiscarded(let reason) = $0 { reason.contains("key") } else { false } })
        #expect(harness.resumedResources == nil)
        #expect(error?.code == .decryptFailed || error?.code == .malformedMedia)   // the segments still need the old key
        #expect(try harness.leftovers().isEmpty)
    }
}
