/// A decoder that turns body chunks into items as they arrive (SSE events, NDJSON records).
public protocol IncrementalBodyDecoder: Sendable {
    /// What the decoder produces.
    associatedtype Item: Sendable
    /// Decodes a chunk and returns the items it completes.
    mutating func feed(_ chunk: [UInt8]) throws(HTTPError) -> [Item]
    /// Ends the body and returns any item it completes.
    mutating func end() -> [Item]
}

extension ServerSentEventDecoder: IncrementalBodyDecoder {
    public mutating func feed(_ chunk: [UInt8]) throws(HTTPError) -> [ServerSentEvent] {
        try feed(chunk[...])
    }

    public mutating func end() -> [ServerSentEvent] {
        finish()
        return []
    }
}

extension NDJSONLineDecoder: IncrementalBodyDecoder {
    public mutating func feed(_ chunk: [UInt8]) throws(HTTPError) -> [[UInt8]] {
        try feed(chunk[...])
    }

    public mutating func end() -> [[UInt8]] {
        finish().map { [$0] } ?? []
    }
}
