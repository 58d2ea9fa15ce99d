#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP

/// `tessera ws`'s connection: one task, or a reconnecting one with `--retries`; lines in as text
/// messages, messages out one per line.
struct WebSocketSession: Sendable {
    private let single: WebSocketTask?
    private let reconnecting: ReconnectingWebSocket?

    init(client: WebSocketClient, url: URL, headers: HTTPHeaders, protocols: [String], retries: Int?) throws(HTTPError) {
        if let retries, retries > 0 {
            var policy = WebSocketReconnectPolicy()
            policy.maximumAttempts = retries
            reconnecting = try client.reconnecting(url, headers: headers, protocols: protocols, policy: policy)
            single = nil
        } else {
            single = try client.task(url, headers: headers, protocols: protocols)
            reconnecting = nil
        }
    }

    func close(_ code: WebSocketCloseCode) {
        single?.close(code)
        reconnecting?.close(code)
    }

    /// Sends each line of `lines`, prints what arrives — for `linger` after the last line, so
    /// the answers to it are not cut off — then closes; returns how it ended.
    func run(lines: StandardInputLines, linger: Duration) async -> WebSocketClose {
        let sender = Task {
            for await item in lines.stream {
                defer { lines.consumed() }
                guard case .text(let line) = item else {
                    Terminal.error("not sent: a line of standard input over \(lines.maximumLineBytes) bytes")
                    continue
                }
                do throws(HTTPError) {
                    if let single { try await single.send(.text(line)) } else { try await reconnecting?.send(.text(line)) }
                } catch {
                    Terminal.error("not sent: \(error.message)")
                }
            }
            try? await Task.sleep(for: linger)   // cancelled (the socket ended first): close at once
            close(.normalClosure)
        }
        defer { sender.cancel() }
        if let single {
            single.start()
            for await event in single.events {
                if case .closed(let close) = event { return close }
                Self.print(event)
            }
            return WebSocketClose(.networkFailure, reason: "The task ended without a close.")
        }
        guard let reconnecting else { preconditionFailure("a session holds one kind of connection") }
        reconnecting.addListener { event in
            Self.print(event)
            if case .reconnecting(let attempt, let delay, let after) = event {
                Terminal.line("tessera: reconnecting (attempt \(attempt)) in \(delay) after \(after)", to: .standardError)
            }
        }
        reconnecting.start()
        return await reconnecting.closed()
    }

    private static func print(_ event: WebSocketEvent) {
        switch event {
        case .message(.text(let text)): Terminal.line(text)
        case .message(.binary(let data)): Terminal.line("base64:" + data.base64EncodedString())
        default: break
        }
    }
}
