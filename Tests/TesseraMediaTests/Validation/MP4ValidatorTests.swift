import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("MP4Validator")
struct MP4ValidatorTests {
    private func validate(_ bytes: [UInt8]) -> [MediaFinding] {
        var validator = MP4Validator()
        return validator.validate(MP4MemorySource(bytes))
    }

    private func ids(_ findings: [MediaFinding], _ severity: MediaFinding.Severity = .error) -> [String] {
        findings.filter { $0.severity == severity }.map(\.id)
    }

    private func joined(_ folder: String, init initName: String = "init.mp4", _ segments: [String]) throws -> [UInt8] {
        try FixtureStore.bytes("\(folder)/\(initName)") + segments.flatMap { try FixtureStore.bytes("\(folder)/\($0)") }
    }

    @Test("every clear fMP4 fixture — inits, segments, inits joined with their segments, the single file — has no finding")
    func fixturesAreValid() throws {
        let paths = try FixtureStore.entries().map(\.path).filter { ($0.hasSuffix(".mp4") || $0.hasSuffix(".m4s")) && !$0.contains("/enc_") }
        #expect(paths.count >= 15)
        for path in paths {
            #expect(validate(try FixtureStore.bytes(path)).isEmpty, "\(path)")
        }
        let video = try joined("b_fmp4_video", (0..<4).map { "seg_00\($0).m4s" })
        #expect(validate(video).isEmpty)
        let audio = try joined("b_fmp4_audio", (0..<5).map { "seg_00\($0).m4s" })
        #expect(validate(audio).isEmpty)
    }

    @Test("a missing fragment is a tfdt gap; swapped fragments go back in time and in sequence")
    func timeline() throws {
        let gap = validate(try joined("b_fmp4_video", ["seg_000.m4s", "seg_002.m4s"]))
        #expect(ids(gap, .warning) == ["mp4-tfdt-gap"] && ids(gap).isEmpty)
        let swapped = validate(try joined("b_fmp4_video", ["seg_001.m4s", "seg_000.m4s"]))
        #expect(ids(swapped) == ["mp4-tfdt-overlap"] && ids(swapped, .warning) == ["mp4-sequence"])
    }

    @Test("a truncated file, a moof without its mdat, and a trun pointing outside the mdat are errors")
    func structure() throws {
        let whole = try joined("b_fmp4_video", ["seg_000.m4s"])
        #expect(ids(validate(Array(whole.dropLast(10)))) == ["mp4-box-truncated"])
        let segment = try FixtureStore.bytes("b_fmp4_video/seg_000.m4s")
        let mdat = try #require((0..<segment.count - 4).first { segment[$0..<($0 + 4)].elementsEqual(Array("mdat".utf8)) }) - 4
        // The segment's own sidx now points past the end of the file too.
        #expect(ids(validate(Array(segment[..<mdat]))) == ["mp4-moof-without-mdat", "mp4-sidx-range"])
        // Push the trun's data_offset past the mdat.
        let trun = try #require((0..<segment.count - 4).first { segment[$0..<($0 + 4)].elementsEqual(Array("trun".utf8)) })
        var moved = segment
        moved[trun + 4 + 8] = 0x7F   // the high byte of data_offset (after version/flags and sample_count)
        #expect(ids(validate(moved)).contains("mp4-trun-outside-mdat"))
    }

    /// The offset of the first `type` box (its size field) in `bytes`.
    private func box(_ type: String, in bytes: [UInt8]) throws -> Int {
        try #require((0..<bytes.count - 4).first { bytes[$0..<($0 + 4)].elementsEqual(Array(type.utf8)) }) - 4
    }

    @Test("sidx: ffmpeg's indexes pass; a wrong referenced_size, a stale duration and an unknown track are caught")
    func segmentIndex() throws {
        let single = try FixtureStore.bytes("d_fmp4_single/media.mp4")
        #expect(validate(single).isEmpty)
        let sidx = try box("sidx", in: single)
        // ffmpeg writes version 1: size, type, version/flags, reference_ID, timescale, 64-bit EPT,
        // 64-bit first_offset, reserved, reference_count, then the first reference (size word,
        // duration, SAP).
        #expect(single[sidx + 8] == 1)
        let reference = sidx + 8 + 4 + 4 + 4 + 8 + 8 + 2 + 2
        var resized = single
        resized[reference + 3] &+= 4
        #expect(ids(validate(resized)).contains("mp4-sidx-target"))
        var stale = single
        stale[reference + 4] &+= 1   // subsegment_duration's high byte
        #expect(ids(validate(stale), .warning).contains("mp4-sidx-duration"))
        var foreign = single
        foreign[sidx + 12 + 3] = 99  // reference_ID
        #expect(ids(validate(foreign)).contains("mp4-sidx-track"))
        var past = single
        past[sidx + 8 + 4 + 4 + 4 + 8 + 3] = 0x7F   // first_offset (64-bit), a high byte
        #expect(ids(validate(past)).contains("mp4-sidx-range"))
        #expect(ids(validate(Array(single[..<(sidx + 20)]) )).contains("mp4-box-truncated"))
    }

    @Test("a box that claims less than its header, stray bytes, an empty file, and a non-fMP4 first box")
    func boxes() {
        #expect(ids(validate([0, 0, 0, 4] + Array("ftyp".utf8))) == ["mp4-box-size"])
        #expect(ids(validate([0, 0, 0])) == ["mp4-box-truncated"])
        #expect(ids(validate([])) == ["mp4-empty"])
        #expect(ids(validate([0, 0, 0, 8] + Array("free".utf8))) == ["mp4-first-box"])
    }
}

@Suite("MP4 validator fuzz inputs")
struct MP4FuzzReplayTests {
    @Test("every saved input validates without trapping, findings inside the file")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzMP4Validator")
        #expect(!inputs.isEmpty)
        for bytes in inputs {
            var validator = MP4Validator()
            let findings = validator.validate(MP4MemorySource(bytes))
            #expect(findings.allSatisfy { $0.byteOffset <= UInt64(bytes.count) })
        }
    }
}
