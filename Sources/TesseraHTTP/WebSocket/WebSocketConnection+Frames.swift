#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

extension WebSocketConnection {
    /// Takes the callers' commands into the I/O state.
    func apply(_ commands: [Command]) {
        for command in commands {
            switch command {
            case .send(let opcode, let payload, let completion):
                guard io.outcome == nil, !io.closeSent else {
                    completion.resume(returning: .failure(closedError("send a message")))
                    continue
                }
                io.data.append(.init(opcode: opcode, payload: payload, completion: completion))
            case .ping(let payload, let completion):
                guard io.outcome == nil, !io.closeSent, payload.count <= 125 else {
                    completion.resume(returning: .failure(payload.count > 125
                        ? HTTPError(.invalidRequest, code: .badHeader, "A ping carries at most 125 bytes, not \(payload.count).")
                        : closedError("send a ping")))
                    continue
                }
                io.control.append(.init(opcode: .ping, payload: payload, completion: completion))
            case .close(let code, let reason):
                guard io.outcome == nil, !io.closeSent else { continue }
                queueClose(WebSocketCloseFrame(code: code.isSendable ? code : .normalClosure, reason: reason))
                enterDuringRound(.closing)
            case .cancel:
                io.finish(cancelledClose(), afterFlush: false)
            }
        }
    }

    /// Room in the event buffer for what this round has produced so far and more.
    var hasRoom: Bool { channel.hasRoom(beyond: io.outbox.count) }

    /// Moves to `state` during a round; the event goes out with the round's others.
    func enterDuringRound(_ state: WebSocketState) {
        inbox.withLock { $0.state = state }
        io.outbox.append(.state(state))
    }

    /// Queues our close frame; the other side has `closeTimeout` to answer it.
    private func queueClose(_ frame: WebSocketCloseFrame) {
        io.control.append(.init(opcode: .close, payload: frame.payload, completion: nil))
        io.closeDeadline = .now + configuration.closeTimeout
    }

    /// Reads and handles what has arrived, while the event buffer has room. Bytes are received
    /// straight into the frame reader's buffer.
    func readAvailable(_ socket: WebSocketSocket) throws(HTTPError) {
        while !io.stoppedReading, hasRoom {
            if try handleBufferedFrames() { continue }
            var asked = 0
            let received = try io.reader.receive(upTo: WebSocketSocket.receiveBytes) { raw throws(HTTPError) in
                asked = raw.count
                return try socket.receive(into: raw)
            }
            guard let count = received else { return }
            guard count > 0 else {
                io.finish(.network(HTTPError(.connectionLost, code: .connectionLost,
                                             "The server closed \(redactedURL) without a WebSocket close frame.")), afterFlush: false)
                return
            }
            io.lastHeard = .now
            // A plain socket that gave less than asked for is empty: poll(2) says when more comes.
            if !socket.isTLS, count < asked {
                while !io.stoppedReading, hasRoom, try handleBufferedFrames() {}
                return
            }
        }
    }

    /// Handles one buffered frame; false when none is whole yet.
    private func handleBufferedFrames() throws(HTTPError) -> Bool {
        let frame: WebSocketFrame
        do {
            guard let next = try io.reader.next() else { return false }
            frame = next
        } catch {
            fail(error)
            return true
        }
        switch frame.opcode {
        case .ping:
            // Only the newest unanswered ping needs its pong (RFC 6455 §5.5.3).
            io.control.removeAll { $0.opcode == .pong }
            io.control.append(.init(opcode: .pong, payload: Array(frame.payload), completion: nil))
        case .pong:
            if let ping = io.ping, ping.payload[...] == frame.payload { io.ping = nil }
            io.outbox.append(.pong(Data(frame.payload)))
        case .close:
            receivedClose(Array(frame.payload))
        case .text, .binary, .continuation:
            do {
                if let message = try io.assembler.take(frame) { io.outbox.append(.message(message)) }
            } catch {
                fail(error)
            }
        }
        return true
    }

    private func receivedClose(_ payload: [UInt8]) {
        let frame: WebSocketCloseFrame
        do {
            frame = try WebSocketCloseFrame(payload: payload)
        } catch {
            fail(error)
            return
        }
        let code = frame.code ?? .noStatusReceived
        if io.closeSent {
            io.finish(WebSocketClose(.closedByClient, code: code, reason: frame.reason), afterFlush: false)
            return
        }
        // A fragmented message still open is abandoned: it never completed.
        enterDuringRound(.closing)
        queueClose(frame)
        io.finish(WebSocketClose(.closedByServer, code: code, reason: frame.reason), afterFlush: true)
    }

    /// Fails the connection for a protocol violation: our close frame says why, then we drop.
    private func fail(_ violation: WebSocketProtocolViolation) {
        if !io.closeSent, io.outcome == nil {
            io.data = io.data.filter { item in
                item.completion?.resume(returning: .failure(closedError("send a message")))
                return false
            }
            queueClose(WebSocketCloseFrame(code: violation.closeCode, reason: ""))
        }
        io.finish(.violation(violation), afterFlush: true)
    }

    /// Writes what the socket takes; refills from the control queue first, then data fragments.
    func flush(_ socket: WebSocketSocket) throws(HTTPError) {
        while true {
            if io.writeOffset == io.writeBuffer.count {
                releaseWritten()
                try refill()
                if io.writeBuffer.isEmpty { return }
            }
            let sent = try socket.send(io.writeBuffer, from: io.writeOffset)
            guard sent > 0 else { return }
            io.writeOffset += sent
        }
    }

    /// A sender's direct write (holding `exclusive`, nothing queued): the frame into the empty
    /// write buffer, then as much of it as the socket takes.
    func writeDirectly(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer, on socket: WebSocketSocket) throws(HTTPError) {
        releaseWritten()
        try encode(isFinal: true, opcode: opcode, payload)
        try flush(socket)
    }

    /// Answers the sends whose bytes are all written.
    private func releaseWritten() {
        io.writeBuffer.removeAll(keepingCapacity: io.writeBuffer.capacity <= 4 << 20)
        io.writeOffset = 0
        guard !io.written.isEmpty || io.writtenBytes > 0 else { return }
        let bytes = io.writtenBytes
        inbox.withLock { $0.queuedBytes -= bytes }
        for completion in io.written { completion.resume(returning: .success(())) }
        io.written = []
        io.writtenBytes = 0
    }

    /// Encodes the next frames into the write buffer (up to about 64 KiB of small frames).
    private func refill() throws(HTTPError) {
        while io.writeBuffer.count < 64 << 10 {
            if !io.control.isEmpty {
                let item = io.control.removeFirst()
                guard !io.closeSent else { continue }
                try item.payload.withUnsafeBytes { raw in Result { () throws(HTTPError) in try encode(isFinal: true, opcode: item.opcode, raw) } }.get()
                if item.opcode == .close { io.closeSent = true }
                if let completion = item.completion {
                    io.written.append(completion)
                    io.writtenBytes += item.payload.count
                }
                continue
            }
            guard !io.closeSent, !io.data.isEmpty else { return }
            let item = io.data[0]
            let end = min(item.payload.count, item.offset + configuration.outgoingFragmentBytes)
            let isFinal = end == item.payload.count
            try item.payload[item.offset..<end].withUnsafeBytes { raw in
                Result { () throws(HTTPError) in try encode(isFinal: isFinal, opcode: item.offset == 0 ? item.opcode : .continuation, raw) }
            }.get()
            io.data[0].offset = end
            guard isFinal else { return }   // one large fragment at a time: a control frame may go next
            io.data.removeFirst()
            if let completion = item.completion { io.written.append(completion) }
            io.writtenBytes += item.payload.count
        }
    }

    private func encode(isFinal: Bool, opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer) throws(HTTPError) {
        let mask: UInt32
        do {
            mask = try io.maskKey()
        } catch {
            throw HTTPError(.internal, code: .cryptoUnavailable, "No masking key for \(redactedURL): \(error.message)")
        }
        WebSocketFrame.encode(isFinal: isFinal, opcode: opcode, payload: payload, mask: mask, into: &io.writeBuffer)
    }

    /// The heartbeat and the close deadline.
    func runTimers() {
        let now = ContinuousClock.now
        if let deadline = io.closeDeadline, now >= deadline {
            io.finish(.network(HTTPError(.timeout, code: .closeTimeout,
                                         "\(redactedURL) did not answer the WebSocket close within \(configuration.closeTimeout).")), afterFlush: false)
            io.afterFlush = false
            return
        }
        guard io.outcome == nil, !io.closeSent, let heartbeat = configuration.heartbeat else { return }
        if !hasRoom {
            // Reading is paused for a slow reader: a pong may be waiting unread; silence proves nothing.
            io.lastHeard = now
            if io.ping != nil { io.ping?.deadline = now + heartbeat.pongTimeout }
            return
        }
        if let ping = io.ping {
            if now >= ping.deadline {
                io.finish(WebSocketClose(.pongTimeout, reason: "\(redactedURL) sent no pong within \(heartbeat.pongTimeout) of a ping."),
                          afterFlush: false)
            }
        } else if now - io.lastHeard >= heartbeat.interval {
            io.pingCounter += 1
            let payload = withUnsafeBytes(of: io.pingCounter.bigEndian) { Array($0) }
            io.control.append(.init(opcode: .ping, payload: payload, completion: nil))
            io.ping = .init(payload: payload, deadline: now + heartbeat.pongTimeout)
        }
    }

    /// How long the loop may sleep before a timer is due (nil: no timer).
    func nextTimer() -> Duration? {
        let now = ContinuousClock.now
        var due: [ContinuousClock.Instant] = []
        if let deadline = io.closeDeadline { due.append(deadline) }
        if io.outcome == nil, !io.closeSent, let heartbeat = configuration.heartbeat {
            due.append(io.ping?.deadline ?? io.lastHeard + heartbeat.interval)
        }
        return due.min().map { max(.zero, $0 - now) }
    }
}
