/// What produces a response body's chunks: the curl transfer, or a test double.
/// Implementations are single-consumer.
public protocol HTTPBodySource: Sendable {
    /// The next chunk, or nil at the end of the body.
    /// - Throws: `HTTPError` when the transfer fails mid-body or the task is cancelled.
    func nextChunk() async throws(HTTPError) -> [UInt8]?
    /// The consumer is gone: stop producing and release the connection.
    func abandon()
}
