import TesseraHTTP
import TesseraSupport

/// A body that yields canned chunks, then ends or fails.
final class StubBodySource: HTTPBodySource {
    private let state: Lock<(chunks: ArraySlice<[UInt8]>, failure: HTTPError?)>

    init(chunks: [[UInt8]], failure: HTTPError?) {
        state = Lock((chunks[...], failure))
    }

    func nextChunk() async throws(HTTPError) -> [UInt8]? {
        let next = state.withLock { state -> Result<[UInt8]?, HTTPError> in
            if let chunk = state.chunks.popFirst() { return .success(chunk) }
            if let failure = state.failure { return .failure(failure) }
            return .success(nil)
        }
        return try next.get()
    }

    func abandon() {}
}
