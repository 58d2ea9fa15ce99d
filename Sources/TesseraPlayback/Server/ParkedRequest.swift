import CMicroHTTPD
import TesseraSupport

/// A request whose connection the server suspended so a responder can answer it later, from any
/// thread, without holding one. Call ``complete(_:)`` exactly once that matters: later calls are
/// ignored. Unanswered by its deadline, it is completed with 503.
public final class ParkedRequest: Suspension, @unchecked Sendable {
    // @unchecked: `connection` is an MHD handle used only for MHD_resume_connection (documented
    // as callable from any thread), exactly once, guarded by `state`.
    private let connection: OpaquePointer
    private unowned let context: ServerContext
    private let state = Lock<(reply: ServerResponse?, isCompleted: Bool)>((nil, false))
    let deadline: ContinuousClock.Instant

    init(connection: OpaquePointer, context: ServerContext, deadline: ContinuousClock.Instant) {
        self.connection = connection
        self.context = context
        self.deadline = deadline
    }

    /// Answers the parked request with `response` and wakes its connection.
    public func complete(_ response: ServerResponse) {
        let first = state.withLock { state -> Bool in
            guard !state.isCompleted else { return false }
            state.isCompleted = true
            state.reply = response
            return true
        }
        guard first else { return }
        context.suspensions.release(self, connection: connection)
    }

    /// True once answered (or expired).
    public var isCompleted: Bool { state.withLock { $0.isCompleted } }

    /// The reply, taken by the handler when libmicrohttpd calls it again after the resume.
    func takeReply() -> ServerResponse? {
        state.withLock { state in
            defer { state.reply = nil }
            return state.reply
        }
    }

    func expire() { complete(.status(503, headers: ["Retry-After": "1"])) }
}
