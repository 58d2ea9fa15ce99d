import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("TS checker fuzz inputs")
struct TSFuzzReplayTests {
    @Test("every saved input gives the same findings (checker and validator) whole and split at every 61st byte")
    func replay() throws {
        for bytes in try FuzzInputs.inputs("FuzzTSPacketChecker") {
            var whole = TSPacketStructureChecker()
            whole.consume(bytes)
            let expected = whole.finish()
            for split in stride(from: 0, through: bytes.count, by: 61) {
                var chunked = TSPacketStructureChecker()
                chunked.consume(Array(bytes[..<split]))
                chunked.consume(Array(bytes[split...]))
                #expect(chunked.finish() == expected)
            }
            var validator = TSValidator()
            validator.consume(bytes)
            let findings = validator.finish()
            for split in stride(from: 0, through: bytes.count, by: 61) {
                var chunked = TSValidator()
                chunked.consume(Array(bytes[..<split]))
                chunked.consume(Array(bytes[split...]))
                #expect(chunked.finish() == findings)
            }
        }
    }
}
