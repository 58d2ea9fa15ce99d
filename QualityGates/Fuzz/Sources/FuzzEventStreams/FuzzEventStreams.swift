import TesseraHTTP

/// The first byte picks a chunk size; the rest is a body fed to the SSE and NDJSON decoders
/// whole and in chunks. Either both feeds fail on the size bound or both give the same items.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventStreams(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = input.first else { return 0 }
    let step = Int(first % 17) + 1
    let body = Array(input.dropFirst())
    let chunks = stride(from: 0, to: body.count, by: step).map { Array(body[$0..<min(body.count, $0 + step)]) }
    precondition(items(ServerSentEventDecoder(maximumBytes: 256), [body]) == items(ServerSentEventDecoder(maximumBytes: 256), chunks),
                 "SSE events depend on chunking")
    precondition(items(NDJSONLineDecoder(maximumBytes: 256), [body]) == items(NDJSONLineDecoder(maximumBytes: 256), chunks),
                 "NDJSON records depend on chunking")
    return 0
}

/// The items `decoder` finds in `parts`, or nil when it stopped at its size bound (a typed
/// error, which is an acceptable outcome here; only disagreement between chunkings is a bug).
private func items<D: IncrementalBodyDecoder>(_ decoder: D, _ parts: [[UInt8]]) -> [D.Item]? where D.Item: Equatable {
    var decoder = decoder
    var out: [D.Item] = []
    do throws(HTTPError) {
        for part in parts { out += try decoder.feed(part) }
    } catch {
        return nil
    }
    return out + decoder.end()
}
