import TesseraSupport

/// A WebSocket task's events, for one reader: state changes, messages, pongs, and the close
/// that ends them — in order, never dropped. Bounded by back-pressure instead: the connection
/// reads the socket only while its `BoundedChannel` `hasRoom`, so a slow reader slows the server
/// (through TCP) rather than losing messages or growing memory. A few lifecycle events (state,
/// close) may go past the capacity. When a full channel drains to half, `onRoom` wakes the
/// connection to read again. A reader's cancellation does not cut the events short: the close
/// that ends them is always seen.
public struct WebSocketEvents: AsyncSequence, Sendable {
    public typealias Element = WebSocketEvent
    let channel: BoundedChannel<WebSocketEvent>

    /// The channel of a connection's events, `capacity` before the connection holds off.
    static func channel(capacity: Int) -> BoundedChannel<WebSocketEvent> {
        BoundedChannel(ChannelPolicy(capacity: capacity, overflow: .signal, endsOnCancellation: false))
    }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        var base: BoundedChannel<WebSocketEvent>.AsyncIterator
        /// The next event, or nil after `closed`.
        public mutating func next() async -> WebSocketEvent? { await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: channel.makeAsyncIterator()) }
}
