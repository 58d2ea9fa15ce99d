/// Why `HTTPBody.deliver(into:)` returned.
public enum HTTPBodyDelivery: Sendable, Equatable {
    /// The body ended: every byte of it is in the destination.
    case ended
    /// The destination reached its `pauseAt`: deliver again (after raising it) for more.
    case paused
    /// The next chunk does not fit the destination's capacity: read the rest as chunks (the
    /// destination's `leftover` first, when it has one).
    case full
}
