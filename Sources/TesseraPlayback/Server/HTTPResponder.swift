/// Answers requests for a loopback server. Called on libmicrohttpd's thread: return quickly, and
/// park (``ServerReply/park(expiry:register:)``) anything that must wait.
public protocol HTTPResponder: Sendable {
    /// The reply to `request`.
    func reply(to request: ServerRequest) -> ServerReply
}
