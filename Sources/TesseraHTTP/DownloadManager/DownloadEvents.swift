import TesseraSupport

/// The events of a `DownloadManager`, for one consumer: an ordered `BoundedChannel` where a
/// download's undelivered progress event is replaced in place by its newer progress (coalesced,
/// at most one per download). Lifecycle events (`added`, `paused`, `completed`, `failed`,
/// `removed`) are always kept; when a reader falls `capacity` events behind, the oldest transient
/// ones (`started`, `retrying`, `restarted`, progress) are dropped and counted.
public struct DownloadEvents: AsyncSequence, Sendable {
    public typealias Element = DownloadEvent
    let channel: BoundedChannel<DownloadEvent>

    /// The channel of a manager's events: `capacity` waiting before transient ones are dropped.
    static func channel(capacity: Int = 4096) -> BoundedChannel<DownloadEvent> {
        BoundedChannel(ChannelPolicy(capacity: capacity, overflow: .dropOldest { !$0.isLifecycle }) { waiting, new in
            guard waiting.id == new.id else { return .unrelated }
            guard waiting.isProgress, new.isProgress else { return .follows }
            waiting = new
            return .merged
        })
    }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: BoundedChannel<DownloadEvent>.AsyncIterator
        /// The next event, or nil once the manager shut down and everything was delivered.
        public mutating func next() async -> DownloadEvent? { await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: channel.makeAsyncIterator()) }
}
