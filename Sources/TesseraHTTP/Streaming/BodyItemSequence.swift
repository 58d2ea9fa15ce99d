/// The items of a streamed body (SSE events, NDJSON records), decoded as the consumer asks for
/// them: lossless, and never more than the current chunk's items ahead of the consumer (the
/// transfer pauses when the consumer does, through the body's watermarks).
public struct BodyItemSequence<Decoder: IncrementalBodyDecoder>: AsyncSequence, Sendable {
    public typealias Element = Decoder.Item
    public typealias Failure = HTTPError

    private let body: HTTPBody
    private let decoder: Decoder

    /// The items `decoder` finds in `body`.
    public init(body: HTTPBody, decoder: Decoder) {
        self.body = body
        self.decoder = decoder
    }

    /// Pulls chunks and hands out items in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Element = Decoder.Item
        public typealias Failure = HTTPError

        var chunks: HTTPBody.AsyncIterator
        var decoder: Decoder
        var pending: [Decoder.Item] = []
        var finished = false

        public mutating func next() async throws(HTTPError) -> Decoder.Item? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(HTTPError) -> Decoder.Item? {
            while pending.isEmpty {
                guard !finished else { return nil }
                if let chunk = try await chunks.next(isolation: actor) {
                    pending = try decoder.feed(chunk)
                } else {
                    pending = decoder.end()
                    finished = true
                }
                pending.reverse()
            }
            return pending.popLast()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), decoder: decoder)
    }

    /// A bounded-lossy view for consumers that only want the latest items: a task drains the
    /// body at once and keeps the newest `capacity` undelivered items, dropping older ones. The
    /// stream ends at the end of the body, or with the body's error after the items before it.
    public func latest(capacity: Int) -> AsyncThrowingStream<Decoder.Item, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Decoder.Item.self, throwing: (any Error).self,
                                                                    bufferingPolicy: .bufferingNewest(Swift.max(1, capacity)))
        let task = Task {
            var iterator = makeAsyncIterator()
            do throws(HTTPError) {
                while let item = try await iterator.next() { continuation.yield(item) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// The events of a `text/event-stream` body.
public typealias ServerSentEventSequence = BodyItemSequence<ServerSentEventDecoder>
/// The records of an NDJSON body, one line each (decode with `JSONDecoder`).
public typealias NDJSONRecordSequence = BodyItemSequence<NDJSONLineDecoder>
