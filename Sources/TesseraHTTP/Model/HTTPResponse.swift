/// A response: the head, available once the header block has arrived, and a streamed body.
public struct HTTPResponse: Sendable {
    /// Status line and headers.
    public let head: HTTPResponseHead
    /// The body, streamed; iterate once.
    public let body: HTTPBody

    /// Creates a response.
    public init(head: HTTPResponseHead, body: HTTPBody) {
        self.head = head
        self.body = body
    }
}
