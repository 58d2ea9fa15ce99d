import TesseraHTTP
import TesseraSupport

/// A body of canned chunks (the protocol's default `deliver`), noting when it is abandoned.
final class CannedChunks: HTTPBodySource {
    private let remaining: Lock<ArraySlice<[UInt8]>>
    /// Whether the body's reader gave it up.
    let abandoned = Lock(false)

    init(_ chunks: [[UInt8]]) { remaining = Lock(chunks[...]) }

    func nextChunk() async throws(HTTPError) -> [UInt8]? { remaining.withLock { $0.popFirst() } }

    func abandon() { abandoned.withLock { $0 = true } }
}
