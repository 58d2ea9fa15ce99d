import Foundation
import TesseraHTTP

/// Header values and failure bodies from a hostile server: the first byte picks the parser, the
/// rest is the value. Each parser accepts or rejects; what it accepts keeps its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeaderValues(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let text = String(decoding: bytes, as: UTF8.self)
    switch data[0] % 5 {
    case 0:
        let name = DownloadFileName.choose(contentDisposition: text, url: URL(string: "https://example.com/a/file.bin")!)
        precondition(DownloadFileName.isSafe(name), "unsafe file name chosen")
    case 1:
        if let retry = RetryAfter(headerValue: text, now: 1_700_000_000) {
            precondition(retry.delay(now: 1_700_000_000) >= .zero, "negative delay")
        }
    case 2:
        let control = CacheControl(fieldValues: [text])
        _ = control.seconds("max-age")
        _ = control.contains("no-store")
    case 3:
        if let context = TraceParent(headerValue: text) {
            precondition(TraceParent(headerValue: context.description) == context, "traceparent does not round-trip")
        }
    default:
        let redacted = PayloadRedaction.redact(bytes, limit: 512)
        precondition(redacted.utf8.count <= 512 + 3, "redaction past its limit")
    }
    return 0
}
