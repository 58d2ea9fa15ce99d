#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a WebSocket task reports, in order.
public enum WebSocketEvent: Sendable, Equatable {
    /// The task moved to a new state (`open` carries the handshake in `opened`, before it).
    case state(WebSocketState)
    /// The handshake succeeded: the subprotocol the server chose (if any) and its response head.
    case opened(subprotocol: String?, headers: HTTPHeaders)
    /// A whole message arrived.
    case message(WebSocketMessage)
    /// A pong arrived (an answer to a ping, or unsolicited), with its payload.
    case pong(Data)
    /// A reconnecting connection will try again after `delay` (attempt counts from 1).
    case reconnecting(attempt: Int, delay: Duration, after: WebSocketClose)
    /// The task ended; always its last event.
    case closed(WebSocketClose)
}
