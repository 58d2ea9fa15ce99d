import TesseraHTTP

/// Any header value: parse or reject, and an accepted range is self-consistent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentRange(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let range = ContentRange(headerValue: text) {
        precondition(range.first <= range.last, "first after last")
        precondition(range.completeLength.map { range.last < $0 } ?? true, "last beyond the length")
    }
    return 0
}
