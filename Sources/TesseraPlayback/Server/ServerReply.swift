/// What a responder decides for one request.
public enum ServerReply: Sendable {
    /// Answer now.
    case response(ServerResponse)
    /// Answer later without holding a thread: the server suspends the connection and calls
    /// `register` with a handle whose `complete` resumes it. Unanswered after `expiry`, the request
    /// gets 503 (suspended connections never time out on their own).
    case park(expiry: Duration, register: @Sendable (ParkedRequest) -> Void)
    /// Close the connection without any reply: what an overloaded or refusing server does (an
    /// origin simulating an outage answers this way).
    case closeConnection
}
