import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("WebVTTValidator")
struct WebVTTValidatorTests {
    private func ids(_ text: String) -> [String] {
        var validator = WebVTTValidator()
        return validator.validate(Array(text.utf8)).map(\.id)
    }

    @Test("every WebVTT fixture segment is valid")
    func fixtures() throws {
        let paths = try FixtureStore.entries().map(\.path).filter { $0.hasSuffix(".vtt") }
        #expect(paths.count == 8)
        for path in paths {
            var validator = WebVTTValidator()
            #expect(validator.validate(try FixtureStore.bytes(path)).isEmpty, "\(path)")
        }
    }

    @Test("signature, encoding and the X-TIMESTAMP-MAP header")
    func header() {
        #expect(ids("WEBVTTX\n") == ["vtt-header"])
        #expect(ids("\u{FEFF}WEBVTT - title\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:900000\n\n") == [])
        #expect(ids("WEBVTT\n\n") == ["vtt-no-timestamp-map"])
        #expect(ids("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00.000\n\n") == ["vtt-timestamp-map"])
        var validator = WebVTTValidator()
        #expect(validator.validate(Array("WEBVTT\n".utf8) + [0xFF, 0xFE]).map(\.id) == ["vtt-encoding"])
    }

    @Test("cue timings: malformed, ending before starting, out of order; hours and CRLF accepted")
    func cues() {
        let map = "WEBVTT\r\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\r\n\r\n"
        #expect(ids(map + "01:00:01.000 --> 01:00:02.500 align:start\r\nhi\r\n") == [])
        #expect(ids(map + "00:01.000 --> 00:02.00\nx\n") == ["vtt-cue-timing"])
        #expect(ids(map + "00:05.000 --> 00:04.000\nx\n") == ["vtt-cue-timing"])
        #expect(ids(map + "00:05.000 --> 00:06.000\nx\n\n00:01.000 --> 00:02.000\ny\n") == ["vtt-cue-order"])
    }

    @Test("mutated fixtures never trap: every outcome is a list of findings")
    func mutations() throws {
        let original = try FixtureStore.bytes("e_multivariant/lo/index1.vtt")
        var random = SeededGenerator(seed: 7)
        var cutOrDamaged = 0
        #expect(WebVTTValidator().validateCopy(original).filter { $0.severity == .error }.isEmpty)
        for _ in 0..<500 {
            var bytes = original
            for _ in 0..<3 {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            var validator = WebVTTValidator()
            let findings = validator.validate(bytes)
            // Every finding is a catalogued one, inside the file, with a sentence; the same bytes
            // give the same findings.
            for finding in findings {
                #expect(Self.catalogue.contains(finding.id), "\(finding)")
                #expect(finding.byteOffset <= UInt64(bytes.count) && !finding.message.isEmpty)
            }
            var again = WebVTTValidator()
            #expect(again.validate(bytes) == findings)
            cutOrDamaged += findings.contains { $0.severity == .error } ? 1 : 0
        }
        // Most damage is noticed (three random bytes and a random cut).
        #expect(cutOrDamaged > 250)
    }

    /// The IDs WebVTTValidator reports (docs/VALIDATION.md).
    static let catalogue: Set<String> = ["vtt-cue-order", "vtt-cue-timing", "vtt-encoding", "vtt-header", "vtt-no-timestamp-map",
                                         "vtt-timestamp-map"]
}

private extension WebVTTValidator {
    /// The findings of `bytes` from a fresh copy of this validator.
    func validateCopy(_ bytes: [UInt8]) -> [MediaFinding] {
        var copy = self
        return copy.validate(bytes)
    }
}
