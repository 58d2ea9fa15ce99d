import TesseraSupport

/// What a connection's I/O thread keeps between poll rounds (that thread only).
struct WebSocketIOState {
    /// A message being cut into frames.
    struct Outbound {
        var opcode: WebSocketOpcode
        var payload: [UInt8]
        var offset = 0
        var completion: WebSocketConnection.Completion?
    }

    /// A control frame waiting to go out (before any further data fragment).
    struct Control {
        var opcode: WebSocketOpcode
        var payload: [UInt8]
        var completion: WebSocketConnection.Completion?
    }

    /// The heartbeat's ping in flight.
    struct Ping {
        var payload: [UInt8]
        var deadline: ContinuousClock.Instant
    }

    /// The open connection, while frames flow (a sender's direct write needs it).
    var socket: WebSocketSocket?
    /// Events of the current round, emitted once it has released `exclusive` (so a reader woken
    /// by them does not find the lock held).
    var outbox: [WebSocketEvent] = []
    var reader: WebSocketFrameReader
    var assembler: WebSocketMessageAssembler
    var control: [Control] = []
    var data: [Outbound] = []
    var writeBuffer: [UInt8] = []
    var writeOffset = 0
    /// Sends fully inside `writeBuffer`, answered once it is written; and their payload bytes.
    var written: [WebSocketConnection.Completion] = []
    var writtenBytes = 0
    var closeSent = false
    /// Set once a close frame came in, or the connection failed: nothing more is read.
    var stoppedReading = false
    /// How the task ends, once decided; with `afterFlush` the queued bytes (a close frame) are
    /// written first.
    var outcome: WebSocketClose?
    var afterFlush = false
    var closeDeadline: ContinuousClock.Instant?
    var lastHeard = ContinuousClock.now
    var ping: Ping?
    var pingCounter: UInt64 = 0
    private var randomPool: [UInt8] = []
    private var randomIndex = 0

    init(configuration: WebSocketConfiguration) {
        reader = WebSocketFrameReader(role: .client, maximumFrameBytes: configuration.maximumFrameBytes)
        assembler = WebSocketMessageAssembler(maximumMessageBytes: configuration.maximumMessageBytes)
    }

    /// Nothing waits to be written.
    var isFlushed: Bool { writeOffset == writeBuffer.count && control.isEmpty && (data.isEmpty || closeSent) }

    /// Decides how the task ends (the first decision stands).
    mutating func finish(_ close: WebSocketClose, afterFlush: Bool) {
        guard outcome == nil else { return }
        outcome = close
        self.afterFlush = afterFlush
        stoppedReading = true
    }

    /// A fresh masking key from the CSPRNG (drawn 4 KiB at a time).
    mutating func maskKey() throws(SupportError) -> UInt32 {
        if randomIndex + 4 > randomPool.count {
            randomPool = try SecureRandom.bytes(4096)
            randomIndex = 0
        }
        defer { randomIndex += 4 }
        return UInt32(randomPool[randomIndex]) << 24 | UInt32(randomPool[randomIndex + 1]) << 16
            | UInt32(randomPool[randomIndex + 2]) << 8 | UInt32(randomPool[randomIndex + 3])
    }

    /// Fails every send still waiting.
    mutating func failPendingWrites(_ error: HTTPError) {
        for completion in written { completion.resume(returning: .failure(error)) }
        for item in control { item.completion?.resume(returning: .failure(error)) }
        for item in data { item.completion?.resume(returning: .failure(error)) }
        written = []
        control = []
        data = []
    }
}
