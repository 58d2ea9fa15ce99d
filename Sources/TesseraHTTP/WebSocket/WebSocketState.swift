/// Where a WebSocket task is in its life.
public enum WebSocketState: String, Sendable, Hashable {
    /// Made but not started.
    case idle
    /// Connecting (TCP, TLS, proxy tunnel) and upgrading.
    case connecting
    /// The handshake succeeded: messages flow both ways.
    case open
    /// A close frame was sent or received; waiting for the other side's.
    case closing
    /// Ended; the task's last event says how.
    case closed
}
