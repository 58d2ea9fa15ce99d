/// How a WebSocket connection ended — the taxonomy a reconnect policy and a caller switch on.
public struct WebSocketClose: Error, Sendable, Equatable, CustomStringConvertible {
    /// Who or what ended it.
    public enum Kind: String, Sendable, Hashable {
        /// This side closed and the server answered the close (a clean close).
        case closedByClient = "closed-by-client"
        /// The server sent a close frame, which was answered (a clean close).
        case closedByServer = "closed-by-server"
        /// The server answered the upgrade with a status other than 101 (`status` says which).
        case handshakeRefused = "handshake-refused"
        /// The server answered 101 but broke the handshake (wrong `Sec-WebSocket-Accept`, missing
        /// `Upgrade`, an extension or subprotocol that was not offered).
        case handshakeInvalid = "handshake-invalid"
        /// The connection could not be made or broke without a close frame (`error` says how).
        case networkFailure = "network-failure"
        /// The server broke RFC 6455 or a configured bound (a masked frame, invalid UTF-8, an
        /// oversized frame, a close inside a fragmented message…); this side closed with `code`.
        case protocolError = "protocol-error"
        /// No pong came back within the heartbeat's timeout: the peer is taken for dead.
        case pongTimeout = "pong-timeout"
        /// The task was cancelled.
        case cancelled
    }

    /// Who or what ended it.
    public let kind: Kind
    /// The close frame's code (the server's, or the one this side sent for a protocol error);
    /// `abnormalClosure` (1006) when no close frame was exchanged, `noStatusReceived` (1005) for
    /// an empty one.
    public let code: WebSocketCloseCode
    /// The close frame's reason, or one sentence saying what happened.
    public let reason: String
    /// The handshake's status, for `handshakeRefused`.
    public let status: Int?
    /// The transport failure, for `networkFailure`.
    public let error: HTTPError?

    /// True when both close frames were exchanged.
    public var wasClean: Bool { kind == .closedByClient || kind == .closedByServer }

    /// Creates a close (policies' tests, adapters).
    public init(_ kind: Kind, code: WebSocketCloseCode = .abnormalClosure, reason: String, status: Int? = nil, error: HTTPError? = nil) {
        self.kind = kind
        self.code = code
        self.reason = reason
        self.status = status
        self.error = error
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.status == rhs.status
            && lhs.error?.code == rhs.error?.code
    }

    public var description: String {
        switch kind {
        case .closedByClient, .closedByServer:
            reason.isEmpty ? "\(kind.rawValue) (\(code))" : "\(kind.rawValue) (\(code)): \(reason)"
        case .handshakeRefused: "\(kind.rawValue) (\(status.map(String.init) ?? "?")): \(reason)"
        default: "\(kind.rawValue): \(reason)"
        }
    }

    static func network(_ error: HTTPError) -> Self { Self(.networkFailure, reason: error.message, error: error) }

    static func violation(_ violation: WebSocketProtocolViolation) -> Self {
        Self(.protocolError, code: violation.closeCode, reason: violation.message)
    }
}
