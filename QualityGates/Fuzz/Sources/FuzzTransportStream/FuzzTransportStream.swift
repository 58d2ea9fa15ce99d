import TesseraMedia

/// Any bytes as MPEG-TS, split at a point the input chooses: the validator gives the same
/// findings as for the whole buffer (chunking invariance) and never traps; the timestamp
/// rebaser, given the packets as two runs, never traps and never changes a length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransportStream(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var validator = TSValidator()
    validator.consume(bytes)
    let findings = validator.finish()
    var chunked = TSValidator()
    chunked.consume(Array(bytes[..<split]))
    chunked.consume(Array(bytes[split...]))
    precondition(chunked.finish() == findings, "chunking changed the validator's findings")
    let packets = bytes.count / 188 * 188
    let middle = packets / 376 * 188
    var first = Array(bytes[..<middle]), second = Array(bytes[middle..<packets])
    var rebaser = TSTimestampRebaser()
    do {
        try rebaser.rebase(&first, startsRun: false)
        try rebaser.rebase(&second, startsRun: true)
    } catch {
        // a refused join (another program or video configuration) is an expected outcome
    }
    precondition(first.count == middle && second.count == packets - middle, "the rebaser changed a length")
    _ = rebaser.resume(run: String(decoding: bytes.prefix(64), as: UTF8.self))
    return 0
}
