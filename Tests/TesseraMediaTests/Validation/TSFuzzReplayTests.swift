import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("MPEG-TS fuzz inputs")
struct TSFuzzReplayTests {
    @Test("every saved input gives the same validator findings whole and split at every 61st byte, and rebases without changing a length")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzTransportStream")
        #expect(inputs.count >= 2, "the FuzzTransportStream corpus is empty")
        for bytes in inputs {
            var validator = TSValidator()
            validator.consume(bytes)
            let findings = validator.finish()
            for split in stride(from: 0, through: bytes.count, by: 61) {
                var chunked = TSValidator()
                chunked.consume(Array(bytes[..<split]))
                chunked.consume(Array(bytes[split...]))
                #expect(chunked.finish() == findings)
            }
            let packets = bytes.count / 188 * 188
            var first = Array(bytes[..<(packets / 376 * 188)]), second = Array(bytes[(packets / 376 * 188)..<packets])
            var rebaser = TSTimestampRebaser()
            let sizes = (first.count, second.count)
            do throws(MediaError) {
                try rebaser.rebase(&first, startsRun: false)
                try rebaser.rebase(&second, startsRun: true)
            } catch {
                // A refused join (another program, another video configuration) is an expected
                // outcome for arbitrary bytes; any other failure is not.
                #expect(error.code == .malformedTransportStream, "\(error)")
            }
            #expect(first.count == sizes.0 && second.count == sizes.1)
        }
    }
}
