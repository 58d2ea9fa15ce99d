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
/// Confinement: `io` and the socket are touched only on the I/O thread; `inbox` is locked.
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
    let channel: WebSocketEventChannel
    let inbox = Lock(Inbox())
    let abort = WebSocketSocket.ConnectAbort()
    /// Wakes the I/O thread; closed when it ends.
    let wakeUp: EventSignal
    /// The I/O thread's state.
    var io: WebSocketIOState

    init(url: URL, headers: HTTPHeaders, protocols: [String], configuration: WebSocketConfiguration,
         transport: CurlTransport.Configuration) throws(HTTPError) {
        self.url = url
        self.configuration = configuration
        self.transport = transport
        handshake = try WebSocketHandshake(url: url, headers: headers, protocols: protocols)
        channel = WebSocketEventChannel(capacity: configuration.eventBufferCapacity)
        do {
            wakeUp = try EventSignal()
        } catch {
            throw HTTPError(.internal, code: .threadStart, "No wake-up for the WebSocket connection to \(URLRedaction.redact(url)): \(error.message)")
        }
        io = WebSocketIOState(configuration: configuration)
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
            try LoopThread.start { [self] in run() }
        } catch {
            end(WebSocketClose.network(error))
        }
    }

    /// Queues a message; returns once it is written to the socket.
    func send(_ opcode: WebSocketOpcode, _ payload: [UInt8]) async -> Result<Void, HTTPError> {
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
        io.failPendingWrites(error)
        channel.emit(.state(.closed))
        channel.emit(.closed(close))
        channel.finish()
    }

    /// Moves to `state` and says so.
    func enter(_ state: WebSocketState) {
        inbox.withLock { $0.state = state }
        channel.emit(.state(state))
    }
}
