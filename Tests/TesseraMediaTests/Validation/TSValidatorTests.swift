import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("TSValidator")
struct TSValidatorTests {
    private func validate(_ bytes: [UInt8], chunk: Int? = nil) -> [MediaFinding] {
        var validator = TSValidator()
        if let chunk {
            var index = 0
            while index < bytes.count {
                validator.consume(Array(bytes[index..<min(bytes.count, index + chunk)]))
                index += chunk
            }
        } else {
            validator.consume(bytes)
        }
        return validator.finish()
    }

    private func errors(_ findings: [MediaFinding]) -> [MediaFinding] { findings.filter { $0.severity == .error } }

    static let segment = "a_ts_vod/seg_001.ts"

    @Test("every MPEG-TS fixture segment, and a VOD's segments joined, have no error")
    func fixturesAreValid() throws {
        let paths = try FixtureStore.entries().map(\.path).filter { $0.hasSuffix(".ts") && !$0.hasPrefix("c_ts_aes") }
        #expect(paths.count >= 10)
        for path in paths {
            let findings = validate(try FixtureStore.bytes(path))
            #expect(errors(findings).isEmpty, "\(path): \(findings)")
        }
        let joined = try (0..<4).flatMap { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
        #expect(errors(validate(joined)).isEmpty)
    }

    @Test("findings do not depend on how the bytes are chunked")
    func chunkingInvariance() throws {
        var bytes = try FixtureStore.bytes(Self.segment)
        bytes.removeSubrange(188 * 20..<188 * 21)   // a lost packet
        let whole = validate(bytes)
        #expect(!whole.isEmpty)
        for chunk in [1, 7, 187, 188, 189, 4096] {
            #expect(validate(bytes, chunk: chunk) == whole, "chunk \(chunk)")
        }
    }

    @Test("lost sync and garbage between packets are reported at their packet, not resynchronised")
    func syncAndGarbage() throws {
        var flipped = try FixtureStore.bytes(Self.segment)
        flipped[188 * 5] = 0x48
        let lost = errors(validate(flipped))
        #expect(lost.first?.id == "ts-sync-lost" && lost.first?.packetIndex == 5 && lost.first?.byteOffset == 940)
        var garbage = try FixtureStore.bytes(Self.segment)
        garbage.insert(contentsOf: [1, 2, 3, 4, 5, 6, 7], at: 188 * 4)
        let found = errors(validate(garbage))
        #expect(found.contains { $0.id == "ts-sync-lost" && $0.packetIndex == 4 })
        #expect(found.contains { $0.id == "ts-partial-packet" })
    }

    @Test("a dropped packet breaks continuity; a repeated packet once is legal, twice is not")
    func continuity() throws {
        var dropped = try FixtureStore.bytes(Self.segment)
        dropped.removeSubrange(188 * 30..<188 * 31)
        #expect(errors(validate(dropped)).contains { $0.id == "ts-continuity" })
        var repeated = try FixtureStore.bytes(Self.segment)
        let packet = Array(repeated[188 * 30..<188 * 31])
        repeated.insert(contentsOf: packet, at: 188 * 31)
        #expect(errors(validate(repeated)).isEmpty)
        repeated.insert(contentsOf: packet, at: 188 * 31)
        #expect(errors(validate(repeated)).contains { $0.id == "ts-continuity" })
    }

    @Test("a corrupted PAT fails its CRC; no PAT at all is reported at the end")
    func psi() throws {
        let bytes = try FixtureStore.bytes(Self.segment)
        let patIndex = try #require((0..<bytes.count / 188).first { bytes[$0 * 188 + 1] & 0x1F == 0 && bytes[$0 * 188 + 2] == 0 })
        var corrupt = bytes
        corrupt[patIndex * 188 + 15] ^= 0x01
        #expect(errors(validate(corrupt)).contains { $0.id == "ts-psi-crc" && $0.packetIndex == UInt64(patIndex) })
        var withoutPAT: [UInt8] = []
        for index in 0..<bytes.count / 188 where !(bytes[index * 188 + 1] & 0x1F == 0 && bytes[index * 188 + 2] == 0) {
            withoutPAT += bytes[index * 188..<(index + 1) * 188]
        }
        #expect(errors(validate(withoutPAT)).contains { $0.id == "ts-missing-pat" })
    }

    @Test("transport errors, scrambling, truncation and emptiness have their IDs")
    func packetFlags() throws {
        var bytes = try FixtureStore.bytes(Self.segment)
        bytes[188 * 3 + 1] |= 0x80
        bytes[188 * 6 + 3] |= 0x80
        let ids = Set(errors(validate(bytes)).map(\.id))
        #expect(ids.isSuperset(of: ["ts-transport-error", "ts-scrambled"]))
        let truncated = Array(try FixtureStore.bytes(Self.segment).dropLast(100))
        #expect(errors(validate(truncated)).map(\.id) == ["ts-partial-packet"])
        #expect(validate([]).map(\.id) == ["ts-empty"])
    }

    @Test("findings per ID are capped and the rest counted")
    func capped() throws {
        var bytes = try FixtureStore.bytes(Self.segment)
        for index in 0..<bytes.count / 188 { bytes[index * 188 + 1] |= 0x80 }
        var validator = TSValidator()
        validator.consume(bytes)
        let findings = validator.finish()
        #expect(findings.filter { $0.id == "ts-transport-error" }.count == TSValidator.maximumPerID)
        #expect(validator.suppressed["ts-transport-error"] == bytes.count / 188 - TSValidator.maximumPerID)
    }
}

@Suite("TSValidator across segment joins")
struct TSValidatorJoinTests {
    private func validate(_ segments: [(path: String, discontinuity: Bool)]) throws -> [MediaFinding] {
        var validator = TSValidator()
        for (index, segment) in segments.enumerated() {
            if index > 0 { validator.beginSegment(discontinuity: segment.discontinuity) }
            validator.consume(try FixtureStore.bytes(segment.path))
        }
        return validator.finish()
    }

    @Test("the discontinuity fixture joins cleanly when its discontinuities are marked")
    func discontinuities() throws {
        let names = ["p1_000", "p1_001", "p2_002", "p2_003", "p3_004", "p3_005"]
        let marked = try validate(names.enumerated().map { ("g_discontinuity/\($1).ts", $0 == 2 || $0 == 4) })
        #expect(marked.filter { $0.severity == .error }.isEmpty, "\(marked)")
        let unmarked = try validate(names.map { ("g_discontinuity/\($0).ts", false) })
        #expect(unmarked.contains { $0.id == "ts-decode-order" })
    }

    @Test("a segment repeated without a discontinuity goes back in time; counters restarting at a join are only info")
    func repeatedSegment() throws {
        let repeated = try validate([("a_ts_vod/seg_000.ts", false), ("a_ts_vod/seg_000.ts", false)])
        #expect(repeated.contains { $0.id == "ts-decode-order" && $0.severity == .error })
        #expect(repeated.filter { $0.id == "ts-continuity" }.isEmpty)
        #expect(repeated.contains { $0.id == "ts-continuity-join" && $0.severity == .info })
        let marked = try validate([("a_ts_vod/seg_000.ts", false), ("a_ts_vod/seg_000.ts", true)])
        #expect(marked.isEmpty)
    }
}
