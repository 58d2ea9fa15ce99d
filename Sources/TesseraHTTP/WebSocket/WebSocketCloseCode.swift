/// A close frame's status code (RFC 6455 §7.4, IANA "WebSocket Close Code Number Registry").
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number on the wire.
    public let rawValue: UInt16
    /// Wraps a number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Wraps a number.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = Self(1000)
    /// 1001: the endpoint is going away (server shutdown, page left).
    public static let goingAway = Self(1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = Self(1002)
    /// 1003: a data type the endpoint cannot accept.
    public static let unsupportedData = Self(1003)
    /// 1005: the close frame carried no code (never sent).
    public static let noStatusReceived = Self(1005)
    /// 1006: the connection ended without a close frame (never sent).
    public static let abnormalClosure = Self(1006)
    /// 1007: a message's bytes are inconsistent with its type (text that is not UTF-8).
    public static let invalidPayload = Self(1007)
    /// 1008: a message violates the endpoint's policy.
    public static let policyViolation = Self(1008)
    /// 1009: a frame or message is larger than the endpoint accepts.
    public static let messageTooBig = Self(1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = Self(1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = Self(1011)
    /// 1012: the server is restarting.
    public static let serviceRestart = Self(1012)
    /// 1013: try again later (the server is overloaded).
    public static let tryAgainLater = Self(1013)

    /// True for codes an endpoint may put in a close frame: 1000–1003, 1007–1014 and the
    /// application ranges 3000–4999 (1004–1006 and 1015 are reserved for reporting only).
    public var isSendable: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var description: String { String(rawValue) }
}
