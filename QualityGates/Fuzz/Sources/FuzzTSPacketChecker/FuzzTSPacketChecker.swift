import TesseraMedia

/// Any bytes, split at a point the input chooses: the packet checker and the full validator must
/// each give the same findings as for the whole buffer (chunking invariance) and never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTSPacketChecker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var whole = TSPacketStructureChecker()
    whole.consume(bytes)
    let expected = whole.finish()
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var chunked = TSPacketStructureChecker()
    chunked.consume(Array(bytes[..<split]))
    chunked.consume(Array(bytes[split...]))
    precondition(chunked.finish() == expected, "chunking changed the finding")
    var validator = TSValidator()
    validator.consume(bytes)
    let findings = validator.finish()
    var split2 = TSValidator()
    split2.consume(Array(bytes[..<split]))
    split2.consume(Array(bytes[split...]))
    precondition(split2.finish() == findings, "chunking changed the validator's findings")
    return 0
}
