/// Per-request bounds the transport enforces.
public struct TransferLimits: Sendable, Equatable {
    /// Longest time to establish TCP (and TLS). Default 10 s.
    public var connectTimeout: Duration = .seconds(10)
    /// Longest time from submission to the end of the response head. Default 30 s.
    public var timeToFirstByte: Duration = .seconds(30)
    /// A transfer slower than `lowSpeedBytesPerSecond` for `lowSpeedWindow` fails with a timeout.
    /// Time spent paused by a slow consumer does not count. Default 1 byte/s over 30 s.
    public var lowSpeedBytesPerSecond: Int = 1
    /// See `lowSpeedBytesPerSecond`. Whole seconds; at least 1 s.
    public var lowSpeedWindow: Duration = .seconds(30)
    /// An optional backstop on the whole transfer, paused time included. Default none.
    public var total: Duration? = nil
    /// Most body bytes accepted (after content decoding). Default 256 MiB.
    public var maximumBodyBytes: UInt64 = 256 << 20
    /// Most bytes of response header block accepted. Default 64 KiB.
    public var maximumHeaderBytes: Int = 64 << 10
    /// Body bytes buffered before the transfer is paused for the consumer. Default 256 KiB.
    public var bufferHighWatermark: Int = 256 << 10
    /// Buffered bytes below which a paused transfer resumes. Default 64 KiB.
    public var bufferLowWatermark: Int = 64 << 10

    /// The defaults above.
    public init() {}
}
