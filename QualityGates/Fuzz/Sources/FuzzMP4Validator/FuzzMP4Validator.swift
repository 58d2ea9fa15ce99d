import TesseraMedia

/// Any bytes as an fMP4 file: the validator walks what it can (boxes, fragments, sidx), reports
/// what it cannot, and never traps, loops or reads outside the buffer; the assembler's box walk
/// either accepts the bytes (and then keeps every box but styp/sidx, in order) or throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Validator(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var validator = MP4Validator()
    let findings = validator.validate(MP4MemorySource(bytes))
    precondition(findings.allSatisfy { $0.byteOffset <= UInt64(size) }, "a finding points past the file")
    if let kept = try? MP4SegmentAssembly.segment(bytes) {   // else refused: a typed error is the expected outcome
        precondition(kept.count <= bytes.count, "the assembler grew a segment")
    }
    _ = try? MP4SegmentAssembly.initialization(bytes)   // refusal is the expected outcome for most inputs
    return 0
}
