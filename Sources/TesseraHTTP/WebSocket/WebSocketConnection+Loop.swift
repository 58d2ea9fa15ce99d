#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

extension WebSocketConnection {
    /// The I/O thread: connect, upgrade, then exchange frames until the task ends.
    func run() {
        channel.offer(.state(.connecting))
        let socket: WebSocketSocket
        do {
            socket = try WebSocketSocket(url: url, configuration: transport, connectTimeout: configuration.connectTimeout, abort: abort)
        } catch {
            end(abort.flag.withLock { $0 } ? cancelledClose() : .network(error))
            return
        }
        switch upgrade(socket) {
        case .failure(let close):
            end(close)
        case .success(let (subprotocol, headers)):
            channel.offer(.opened(subprotocol: subprotocol, headers: headers))
            enter(.open)
            exchange(socket)
        }
    }

    func cancelledClose() -> WebSocketClose {
        WebSocketClose(.cancelled, reason: "The WebSocket task for \(redactedURL) was cancelled.")
    }

    /// Sends the upgrade request and reads the answer's head; bytes after it are frames.
    private func upgrade(_ socket: WebSocketSocket) -> Result<(String?, HTTPHeaders), WebSocketClose> {
        let deadline = ContinuousClock.now + configuration.handshakeTimeout
        let request = handshake.requestBytes
        var offset = 0
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            do {
                if offset < request.count {
                    offset += try socket.send(request, from: offset)
                }
                if offset == request.count {
                    while let count = try buffer.withUnsafeMutableBytes({ raw throws(HTTPError) in try socket.receive(into: raw) }) {
                        guard count > 0 else {
                            return .failure(.network(HTTPError(.connectionLost, code: .connectionLost,
                                                               "The server closed \(redactedURL) before answering the WebSocket upgrade.")))
                        }
                        received.append(contentsOf: buffer[0..<count])
                        if let (head, consumed) = try Self.head(received, limit: configuration.maximumHandshakeBytes) {
                            io.reader.append(Array(received[consumed...]))
                            return handshake.verdict(on: head).map { ($0, head.headers) }
                        }
                    }
                }
            } catch let close as WebSocketClose {
                return .failure(close)
            } catch let error as HTTPError {
                return .failure(.network(error))
            } catch {
                return .failure(.network(HTTPError(.internal, code: .protocolError, "\(error)")))
            }
            var sends: [Command] = []
            for command in takeCommands() {
                switch command {
                case .cancel: return .failure(cancelledClose())
                case .close(let code, let reason):
                    requeue(sends)
                    return .failure(WebSocketClose(.cancelled, code: code, reason: reason.isEmpty ? "Closed before the upgrade completed." : reason))
                case .send, .ping: sends.append(command)
                }
            }
            requeue(sends)
            executor.runJobs()
            let remaining = deadline - .now
            guard remaining > .zero else {
                return .failure(.network(HTTPError(.timeout, code: .handshakeTimeout,
                                                   "\(redactedURL) did not answer the WebSocket upgrade within \(configuration.handshakeTimeout).")))
            }
            wait(socket: socket.descriptor, events: offset < request.count ? Int16(POLLOUT) : Int16(POLLIN), timeout: remaining)
        }
    }

    private static func head(_ bytes: [UInt8], limit: Int) throws(WebSocketClose) -> (WebSocketResponseHead, Int)? {
        guard let (head, consumed) = try WebSocketResponseHead.parse(bytes, limit: limit) else { return nil }
        return (head, consumed)
    }

    /// Frames both ways until the outcome is decided (and, for a close, written). Each round runs
    /// holding `exclusive`, which a sender's direct write also takes; poll(2) runs without it.
    private func exchange(_ socket: WebSocketSocket) {
        exclusive.withLock { _ in
            io.socket = socket
            io.lastHeard = .now
        }
        while true {
            let (next, produced) = exclusive.withLock { _ in
                let next = round(socket)
                defer { io.outbox.removeAll(keepingCapacity: true) }
                return (next, io.outbox)
            }
            for event in produced { channel.offer(event) }
            executor.runJobs()
            switch next {
            case .wait(let events, let timeout): wait(socket: socket.descriptor, events: events, timeout: timeout)
            case .ended(let outcome):
                end(outcome)
                return
            }
        }
    }

    /// What a round leaves the loop to do.
    private enum RoundEnd {
        case wait(events: Int16, timeout: Duration?)
        case ended(WebSocketClose)
    }

    /// One round: commands, reads, writes, timers. Returns what to poll for next, or the outcome
    /// once the task has ended.
    private func round(_ socket: WebSocketSocket) -> RoundEnd {
        apply(takeCommands())
        if io.outcome == nil || io.afterFlush {
            do {
                if !io.stoppedReading { try readAvailable(socket) }
                try flush(socket)
            } catch {
                io.stoppedReading = true
                if io.outcome == nil { io.finish(.network(error), afterFlush: false) }
                io.afterFlush = false
            }
        }
        runTimers()
        if let outcome = io.outcome, !io.afterFlush || io.isFlushed {
            io.socket = nil
            return .ended(outcome)
        }
        var events: Int16 = 0
        if !io.stoppedReading, hasRoom { events |= Int16(POLLIN) }
        if !io.isFlushed { events |= Int16(POLLOUT) }
        return .wait(events: events, timeout: nextTimer())
    }

    /// Waits for the socket, the wake-up eventfd or the timeout (nil: no timeout); only looks
    /// when jobs for the executor are waiting.
    private func wait(socket: Int32, events: Int16, timeout: Duration?) {
        var fds = [pollfd(fd: socket, events: events, revents: 0), pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)]
        var milliseconds: Int32 = -1
        if executor.hasJobs {
            milliseconds = 0
        } else if let timeout {
            let c = timeout.components
            milliseconds = Int32(clamping: max(0, c.seconds * 1000 + (c.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
        }
        _ = poll(&fds, 2, milliseconds)
        if fds[1].revents != 0 { wakeUp.drain() }
    }

    /// The commands posted since the last round.
    private func takeCommands() -> [Command] {
        inbox.withLock { inbox in
            defer { inbox.commands.removeAll() }
            return inbox.commands
        }
    }

    /// Puts sends back at the front, in order, while the upgrade is under way.
    private func requeue(_ commands: [Command]) {
        guard !commands.isEmpty else { return }
        inbox.withLock { $0.commands.insert(contentsOf: commands, at: 0) }
    }
}
