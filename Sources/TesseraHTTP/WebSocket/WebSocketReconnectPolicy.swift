import TesseraSupport
/// When and how soon a `ReconnectingWebSocket` connects again.
///
/// By default it reconnects after a network failure, a pong timeout, a server close that says
/// "come back" (1001 going away, 1011, 1012 restart, 1013 try later, or no close frame), and a
/// handshake refused with 408, 429 or a 5xx; never after this side's own close, a cancel, a
/// protocol error or another refusal (a 401 or 404 will not fix itself). Backoff doubles from
/// `initialDelay` to `maximumDelay`, with jitter; attempts count from the last open connection.
public struct WebSocketReconnectPolicy: Sendable {
    /// Consecutive attempts that may fail before giving up. Default 5.
    public var maximumAttempts = 5
    /// The first wait. Default 0.5 s.
    public var initialDelay: Duration = .milliseconds(500)
    /// The longest wait. Default 30 s.
    public var maximumDelay: Duration = .seconds(30)
    /// Each further wait is this times the last. Default 2.
    public var multiplier = 2.0
    /// Wait a random amount between half the delay and all of it (so clients spread out).
    /// Default on.
    public var jitter = true

    /// The defaults.
    public init() {}

    /// True when a task that ended with `close` should be followed by another.
    public func shouldReconnect(after close: WebSocketClose) -> Bool {
        switch close.kind {
        case .networkFailure, .pongTimeout: return true
        case .closedByServer: return [1001, 1006, 1011, 1012, 1013].contains(close.code.rawValue)
        case .handshakeRefused:
            guard let status = close.status else { return false }
            return status == 408 || status == 429 || (500...599).contains(status)
        case .closedByClient, .cancelled, .protocolError, .handshakeInvalid: return false
        }
    }

    /// The wait before attempt `attempt` (from 1).
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(beforeAttempt: attempt, using: &generator)
    }

    /// The wait before attempt `attempt`, drawing jitter from `generator`.
    public func delay<G: RandomNumberGenerator>(beforeAttempt attempt: Int, using generator: inout G) -> Duration {
        let base = initialDelay.inSeconds
        let ceiling = maximumDelay.inSeconds
        var seconds = min(ceiling, base * pow(multiplier, Double(max(0, attempt - 1))))
        if jitter, seconds > 0 { seconds = Double.random(in: (seconds / 2)...seconds, using: &generator) }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent) { result *= base }
        return result
    }
}
