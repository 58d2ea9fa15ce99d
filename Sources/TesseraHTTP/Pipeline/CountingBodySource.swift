import Synchronization

/// Passes a body's chunks through, counting the bytes delivered (for the `finish` event).
final class CountingBodySource: HTTPBodySource {
    private let inner: HTTPBody
    private let delivered = Atomic<Int64>(0)

    init(_ inner: HTTPBody) { self.inner = inner }

    /// Bytes handed on so far.
    var count: Int64 { delivered.load(ordering: .relaxed) }

    func nextChunk() async throws(HTTPError) -> [UInt8]? {
        let chunk = try await inner.nextChunk()
        if let chunk { delivered.add(Int64(chunk.count), ordering: .relaxed) }
        return chunk
    }

    func abandon() { inner.discard() }
}
