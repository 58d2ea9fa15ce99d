import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("TSPacketStructureChecker")
struct TSPacketStructureCheckerTests {
    func check(_ bytes: [UInt8], maximumChunk: Int, seed: UInt64 = 1) -> TSStructureFinding? {
        var checker = TSPacketStructureChecker()
        var generator = SeededGenerator(seed: seed)
        for chunk in generator.chunks(of: bytes, maximum: maximumChunk) { checker.consume(chunk) }
        return checker.finish()
    }

    @Test("every TS fixture is whole 0x47-synchronised 188-byte packets, whatever the chunking",
          arguments: [1, 187, 188, 189, 10_000])
    func fixtures(maximumChunk: Int) throws {
        for path in ["a_ts_vod/seg_000.ts", "d_ts_single/media.ts", "g_pts_wrap/seg_001.ts", "g_discontinuity/p2_002.ts"] {
            #expect(check(try FixtureStore.bytes(path), maximumChunk: maximumChunk) == nil)
        }
    }

    @Test("garbage between packets is reported at its byte offset, not skipped")
    func garbage() throws {
        var bytes = try FixtureStore.bytes("a_ts_vod/seg_000.ts")
        bytes.insert(contentsOf: [1, 2, 3], at: 188 * 5)
        let finding = try #require(check(bytes, maximumChunk: 500))
        #expect(finding.kind == .syncLost)
        #expect(finding.byteOffset == 188 * 5)
    }

    @Test("a stream cut inside a packet is reported as a partial packet")
    func truncated() throws {
        let bytes = Array(try FixtureStore.bytes("a_ts_vod/seg_000.ts").dropLast(100))
        let finding = try #require(check(bytes, maximumChunk: 4096))
        #expect(finding.kind == .partialPacket)
        #expect(finding.byteOffset == UInt64((bytes.count / 188) * 188))
    }

    @Test("encrypted bytes (a wrong key's output) fail at packet 0, and an empty stream is reported")
    func notTS() throws {
        let finding = try #require(check(try FixtureStore.bytes("c_ts_aes_iv/seg_000.ts"), maximumChunk: 4096))
        #expect(finding.byteOffset == 0)
        var checker = TSPacketStructureChecker()
        #expect(checker.finish()?.kind == .empty)
    }
}
