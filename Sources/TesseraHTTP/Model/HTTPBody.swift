/// A response body, streamed as byte chunks in order. Iterate it **once**.
///
/// Memory is bounded by the request's buffer watermarks: a slow consumer pauses the transfer.
/// Dropping an unconsumed body cancels the transfer.
public final class HTTPBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = HTTPError

    private let source: any HTTPBodySource

    /// Wraps a chunk source.
    public init(source: any HTTPBodySource) { self.source = source }

    deinit { source.abandon() }

    /// Gives the body up unread: the transfer stops and its connection is released.
    public func discard() { source.abandon() }

    /// Iterates the chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Element = [UInt8]
        public typealias Failure = HTTPError
        let body: HTTPBody

        /// The next chunk, or nil at the end.
        /// - Throws: `HTTPError` for a failure mid-body or cancellation.
        public mutating func next() async throws(HTTPError) -> [UInt8]? {
            try await body.source.nextChunk()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(HTTPError) -> [UInt8]? {
            try await body.source.nextChunk()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }

    /// The next chunk, or nil at the end.
    func nextChunk() async throws(HTTPError) -> [UInt8]? { try await source.nextChunk() }

    /// Copies the body's next bytes straight into `destination` as they arrive (no array a
    /// chunk, no wake-up of the reader a chunk) until the body ends, the destination reaches its
    /// `pauseAt`, or the next chunk does not fit its capacity; then iterate the rest as chunks
    /// (`leftover` first). Not to be mixed with an iteration in progress on another task.
    /// - Throws: `HTTPError` for a failure mid-body or cancellation.
    public func deliver(into destination: HTTPBodyDestination) async throws(HTTPError) -> HTTPBodyDelivery {
        try await source.deliver(into: destination)
    }

    /// Reads the whole body into memory, failing once it passes `limit` bytes.
    /// - Throws: `too-large` past the limit; transfer failures as they come.
    /// - Complexity: O(n).
    public func collect(upTo limit: Int) async throws(HTTPError) -> [UInt8] {
        try await collect(upTo: limit, reserving: 0)
    }

    /// Reads the whole body into memory with room for `expected` bytes made up front (the
    /// announced length, bounded by `limit`), so a large body is copied once.
    /// - Throws: as `collect(upTo:)`.
    public func collect(upTo limit: Int, reserving expected: Int) async throws(HTTPError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Swift.max(0, Swift.min(expected, limit)))
        while let chunk = try await source.nextChunk() {
            guard out.count + chunk.count <= limit else {
                source.abandon()
                throw HTTPError(.tooLarge, code: .bodyTooLarge,
                                "The response body is larger than the \(limit)-byte limit.")
            }
            out.append(contentsOf: chunk)
        }
        return out
    }
}
