/// A final response with its whole body in memory, as response adapters see it.
public struct HTTPCollectedResponse: Sendable {
    /// Status line and headers.
    public var head: HTTPResponseHead
    /// The body.
    public var body: [UInt8]

    /// Creates a collected response.
    public init(head: HTTPResponseHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }
}
