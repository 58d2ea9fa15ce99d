#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// One WebSocket connection's life on its own I/O thread: connect, upgrade, frames both ways,
/// heartbeat, close. Callers talk to it only through the locked inbox and an eventfd that wakes
/// the thread, like the HTTP engine's loop. One thread per connection: WebSockets are few and
/// long-lived, and a slow connect or a full event buffer on one never holds up another.
///
/// Confinement: `io` and the socket are touched only while holding `exclusive` — by the I/O
/// thread during its rounds (never across poll), and by a sender writing directly when nothing is
/// queued; before the upgrade completes, only by the I/O thread. `inbox` is locked on its own,
/// always inside `exclusive` when both are held.
/// Unchecked because `io` is a plain stored property guarded by `exclusive` (see Confinement),
/// which the compiler cannot see.
final class WebSocketConnection: @unchecked Sendable {
    typealias Completion = CheckedContinuation<Result<Void, HTTPError>, Never>

    enum Command {
        case send(WebSocketOpcode, [UInt8], Completion)
        case ping([UInt8], Completion)
        case close(WebSocketCloseCode, String)
        case cancel
    }

    struct Inbox {
        var commands: [Command] = []
        var queuedBytes = 0
        var state = WebSocketState.idle
        /// Set once the thread has ended; the eventfd is closed then, under this lock.
        var isEnded = false
    }

    let url: URL
    let handshake: WebSocketHandshake
    let configuration: WebSocketConfiguration
    let transport: CurlTransport.Configuration
    let channel: BoundedChannel<WebSocketEvent>
    let inbox = Lock(Inbox())
    /// Held around every use of `io` once the connection is open (see Confinement).
    let exclusive = Lock.section()
    let abort = WebSocketSocket.ConnectAbort()
    /// Wakes the I/O thread; closed when it ends.
    let wakeUp: EventSignal
    /// The I/O thread's state.
    var io: WebSocketIOState
    /// Runs tasks that prefer it on the I/O thread, between rounds.
    let executor: LoopExecutor

    init(url: URL, headers: HTTPHeaders, protocols: [String], configuration: WebSocketConfiguration,
         transport: CurlTransport.Configuration) throws(HTTPError) {
        self.url = url
        self.configuration = configuration
        self.transport = transport
        handshake = try WebSocketHandshake(url: url, headers: headers, protocols: protocols)
        channel = WebSocketEvents.channel(capacity: configuration.eventBufferCapacity)
        do {
            wakeUp = try EventSignal()
        } catch {
            throw HTTPError(.internal, code: .threadStart, "No wake-up for the WebSocket connection to \(URLRedaction.redact(url)): \(error.message)")
        }
        io = WebSocketIOState(configuration: configuration)
        executor = LoopExecutor { [wakeUp] in wakeUp.signal() }
        channel.setOnRoom { [wakeUp] in wakeUp.signal() }
    }

    var redactedURL: String { URLRedaction.redact(url) }

    var state: WebSocketState { inbox.withLock { $0.state } }

    /// Starts the I/O thread (once).
    func start() {
        let first = inbox.withLock { inbox -> Bool in
            guard inbox.state == .idle, !inbox.isEnded else { return false }
            inbox.state = .connecting
            return true
        }
        guard first else { return }
        do {
            try LoopThread.start { [self] in
                executor.adoptCurrentThread()
                run()
                executor.runJobs()   // the last events' readers, on this thread
                executor.close()
            }
        } catch {
            end(WebSocketClose.network(error))
            executor.close()
        }
    }

    /// Sends a message: written at once on the caller's thread when the connection is open and
    /// nothing is queued (no thread hop), else queued for the I/O thread; returns once its bytes
    /// are handed to the socket (or, for a direct write the socket took only part of, to the
    /// connection's write buffer, which the I/O thread drains before anything else is sent).
    func send(_ opcode: WebSocketOpcode, _ payload: [UInt8]) async -> Result<Void, HTTPError> {
        if let written = payload.withUnsafeBytes({ sendDirectly(opcode, $0) }) { return written }
        return await queue(opcode, payload)
    }

    /// Sends a binary message: as `send(_:_:)`, its bytes copied only when it must be queued.
    func send(_ opcode: WebSocketOpcode, _ payload: Data) async -> Result<Void, HTTPError> {
        if let written = payload.withUnsafeBytes({ sendDirectly(opcode, $0) }) { return written }
        return await queue(opcode, [UInt8](payload))
    }

    /// Hands a frame to the I/O thread; answered once its bytes are written.
    private func queue(_ opcode: WebSocketOpcode, _ payload: [UInt8]) async -> Result<Void, HTTPError> {
        await withCheckedContinuation { (completion: Completion) in
            let refusal = inbox.withLock { inbox -> HTTPError? in
                guard inbox.state == .connecting || inbox.state == .open || inbox.state == .idle, !inbox.isEnded else {
                    return closedError("send a message")
                }
                guard inbox.queuedBytes + payload.count <= configuration.maximumQueuedBytes else {
                    return HTTPError(.tooLarge, code: .queueFull,
                                     "The WebSocket to \(redactedURL) has \(inbox.queuedBytes) bytes waiting to be sent (limit \(configuration.maximumQueuedBytes)).")
                }
                inbox.queuedBytes += payload.count
                inbox.commands.append(opcode == .ping ? .ping(payload, completion) : .send(opcode, payload, completion))
                wakeUp.signal()
                return nil
            }
            if let refusal { completion.resume(returning: .failure(refusal)) }
        }
    }

    /// Writes a frame now, on the caller's thread, when nothing is queued before it; nil when it
    /// must be queued instead.
    private func sendDirectly(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer) -> Result<Void, HTTPError>? {
        guard payload.count <= configuration.outgoingFragmentBytes, opcode != .ping || payload.count <= 125 else { return nil }
        return exclusive.withLock { _ -> Result<Void, HTTPError>? in
            let clear = inbox.withLock { $0.state == .open && $0.commands.isEmpty && !$0.isEnded }
            guard clear, let socket = io.socket, io.outcome == nil, !io.closeSent, io.control.isEmpty, io.data.isEmpty,
                  io.writeOffset == io.writeBuffer.count else { return nil }
            do throws(HTTPError) {
                try writeDirectly(opcode, payload, on: socket)
                if !io.isFlushed { wakeUp.signal() }   // the rest goes when the socket takes it
                return .success(())
            } catch {
                io.stoppedReading = true
                io.finish(.network(error), afterFlush: false)
                wakeUp.signal()
                return .failure(error)
            }
        }
    }

    /// Begins the closing handshake (or, before the upgrade, ends the task).
    func close(_ code: WebSocketCloseCode, reason: String) { post(.close(code, reason)) }

    /// Drops the connection at once.
    func cancel() {
        abort.flag.withLock { $0 = true }
        post(.cancel)
    }

    private func post(_ command: Command) {
        inbox.withLock { inbox in
            guard !inbox.isEnded else { return }
            inbox.commands.append(command)
        }
        wakeUp.signal()
    }

    func closedError(_ what: String) -> HTTPError {
        HTTPError(.cancelled, code: .webSocketClosed, "Cannot \(what): the WebSocket to \(redactedURL) is not open.")
    }

    /// Ends the task: the last events, every waiting send failed, the eventfd closed.
    func end(_ close: WebSocketClose) {
        let commands = inbox.withLock { inbox -> [Command] in
            guard !inbox.isEnded else { return [] }
            inbox.isEnded = true
            inbox.state = .closed
            wakeUp.close()
            defer { inbox.commands = [] }
            return inbox.commands
        }
        let error = closedError("finish sending")
        for command in commands {
            switch command {
            case .send(_, _, let completion), .ping(_, let completion): completion.resume(returning: .failure(error))
            case .close, .cancel: break
            }
        }
        exclusive.withLock { _ in io.failPendingWrites(error) }
        channel.offer(.state(.closed))
        channel.offer(.closed(close))
        channel.finish()
    }

    /// Moves to `state` and says so.
    func enter(_ state: WebSocketState) {
        inbox.withLock { $0.state = state }
        channel.offer(.state(state))
    }
}
