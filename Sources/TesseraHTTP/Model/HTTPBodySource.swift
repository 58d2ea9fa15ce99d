/// What produces a response body's chunks: the curl transfer, or a test double.
/// Implementations are single-consumer.
public protocol HTTPBodySource: Sendable {
    /// The next chunk, or nil at the end of the body.
    /// - Throws: `HTTPError` when the transfer fails mid-body or the task is cancelled.
    func nextChunk() async throws(HTTPError) -> [UInt8]?
    /// Copies the body's next bytes into `destination` until the body ends, the destination
    /// reaches its `pauseAt`, or a chunk does not fit its capacity. The default reads chunks
    /// (`nextChunk`) and keeps one that does not fit as the destination's `leftover`; the curl
    /// transfer copies each chunk there as it arrives.
    /// - Throws: `HTTPError` when the transfer fails mid-body or the task is cancelled.
    func deliver(into destination: HTTPBodyDestination) async throws(HTTPError) -> HTTPBodyDelivery
    /// The consumer is gone: stop producing and release the connection.
    func abandon()
}

extension HTTPBodySource {
    /// The default delivery: chunks read with `nextChunk` and appended while they fit; the first
    /// that does not becomes the destination's `leftover` (`full`).
    /// - Throws: what `nextChunk` throws.
    public func deliver(into destination: HTTPBodyDestination) async throws(HTTPError) -> HTTPBodyDelivery {
        while !destination.reachedPause {
            guard let chunk = try await nextChunk() else { return .ended }
            guard destination.append(chunk) else {
                destination.leftover = chunk
                return .full
            }
        }
        return .paused
    }
}
