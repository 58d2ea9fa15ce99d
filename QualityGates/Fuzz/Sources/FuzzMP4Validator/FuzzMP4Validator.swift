import TesseraMedia

/// Any bytes as an fMP4 file: the validator walks what it can, reports what it cannot, and never
/// traps, loops or reads outside the buffer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Validator(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var validator = MP4Validator()
    let findings = validator.validate(MP4MemorySource(Array(UnsafeBufferPointer(start: data, count: size))))
    precondition(findings.allSatisfy { $0.byteOffset <= UInt64(size) }, "a finding points past the file")
    return 0
}
