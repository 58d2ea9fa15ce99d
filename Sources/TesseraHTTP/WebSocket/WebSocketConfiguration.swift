/// Settings of a `WebSocketClient`: every bound a connection keeps.
public struct WebSocketConfiguration: Sendable {
    /// Keep-alive pings and the pong deadline that declares a peer dead.
    public struct Heartbeat: Sendable, Equatable {
        /// How long the connection may be silent (nothing received) before a ping goes out.
        public var interval: Duration
        /// How long a ping may wait for its pong before the connection ends with `pongTimeout`.
        public var pongTimeout: Duration
        /// A heartbeat.
        public init(interval: Duration, pongTimeout: Duration) {
            self.interval = interval
            self.pongTimeout = pongTimeout
        }
    }

    /// Header fields sent with every upgrade request (the handshake's own fields cannot be
    /// overridden). Default `User-Agent: Tessera`.
    public var headers: HTTPHeaders = ["User-Agent": "Tessera"]
    /// Allow `ws://` (plain text). Off by default, like plain http in the client.
    public var allowsPlainText = false
    /// Connect (TCP, TLS, proxy tunnel) deadline. Default 10 s.
    public var connectTimeout: Duration = .seconds(10)
    /// Deadline for the server's 101 once connected. Default 10 s.
    public var handshakeTimeout: Duration = .seconds(10)
    /// How long a close waits for the other side's close frame before dropping. Default 5 s.
    public var closeTimeout: Duration = .seconds(5)
    /// The largest frame accepted, refused from its header (1009). Default 16 MiB.
    public var maximumFrameBytes = 16 << 20
    /// The largest message accepted, all fragments together (1009). Default 64 MiB.
    public var maximumMessageBytes = 64 << 20
    /// The largest response head accepted in the handshake. Default 16 KiB.
    public var maximumHandshakeBytes = 16 << 10
    /// Outgoing messages are cut into frames of at most this many bytes, so a ping or pong can
    /// go out between the fragments of a large message. Default 1 MiB.
    public var outgoingFragmentBytes = 1 << 20
    /// Bytes accepted for sending but not yet written; a send past it fails with `queue-full`.
    /// Default 64 MiB.
    public var maximumQueuedBytes = 64 << 20
    /// Events held for a slow reader. When the buffer is full the connection stops reading the
    /// socket (TCP pushes back on the server) — nothing is dropped. Default 256.
    public var eventBufferCapacity = 256
    /// Keep-alive; nil for none. Default a ping after 30 s of silence, 10 s for its pong.
    public var heartbeat: Heartbeat? = Heartbeat(interval: .seconds(30), pongTimeout: .seconds(10))

    /// The defaults.
    public init() {}
}
