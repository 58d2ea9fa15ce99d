/// The peer broke RFC 6455 (or a configured bound): the connection fails with `closeCode`.
package struct WebSocketProtocolViolation: Error, Sendable, Equatable {
    /// The code our close frame carries: 1002, 1007 or 1009.
    package var closeCode: WebSocketCloseCode
    /// One sentence naming what arrived.
    package var message: String

    static func protocolError(_ message: String) -> Self { Self(closeCode: .protocolError, message: message) }
}
