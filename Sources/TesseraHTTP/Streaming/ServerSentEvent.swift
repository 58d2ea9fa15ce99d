/// One event of a `text/event-stream` body (WHATWG HTML §9.2).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event type; "message" when the stream named none.
    public var type: String
    /// The data lines joined with LF.
    public var data: String
    /// The last event ID seen so far in the stream (it persists across events), or "".
    public var lastEventID: String

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
