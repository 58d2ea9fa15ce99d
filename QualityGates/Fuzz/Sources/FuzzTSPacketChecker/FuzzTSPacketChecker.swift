import TesseraMedia

/// Any bytes, split at a point the input chooses: the checker must give the same finding as for
/// the whole buffer (chunking invariance) and never trap.
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
    return 0
}
