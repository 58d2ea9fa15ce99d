import TesseraHTTP

/// The first byte picks a chunk size; the rest is a body fed to the SSE and NDJSON decoders
/// whole and in chunks. Either both feeds fail on the size bound or both give the same events.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventStreams(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = input.first else { return 0 }
    let step = Int(first % 17) + 1
    let body = Array(input.dropFirst())
    let chunks = stride(from: 0, to: body.count, by: step).map { body[$0..<min(body.count, $0 + step)] }

    func events(_ parts: [ArraySlice<UInt8>]) -> [ServerSentEvent]? {
        var decoder = ServerSentEventDecoder(maximumBytes: 256)
        var out: [ServerSentEvent] = []
        for part in parts {
            guard let more = try? decoder.feed(part) else { return nil }
            out += more
        }
        decoder.finish()
        return out
    }
    func records(_ parts: [ArraySlice<UInt8>]) -> [[UInt8]]? {
        var decoder = NDJSONLineDecoder(maximumBytes: 256)
        var out: [[UInt8]] = []
        for part in parts {
            guard let more = try? decoder.feed(part) else { return nil }
            out += more
        }
        if let last = decoder.finish() { out.append(last) }
        return out
    }
    precondition(events([body[...]]) == events(chunks), "SSE events depend on chunking")
    precondition(records([body[...]]) == records(chunks), "NDJSON records depend on chunking")
    return 0
}
