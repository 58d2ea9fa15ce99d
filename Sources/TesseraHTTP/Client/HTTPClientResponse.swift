/// A decoded value with its response metadata.
public struct HTTPClientResponse<Value: Sendable>: Sendable {
    /// The decoded body.
    public let value: Value
    /// Status, headers, final URL and timings.
    public let metadata: HTTPResponseMetadata
}
