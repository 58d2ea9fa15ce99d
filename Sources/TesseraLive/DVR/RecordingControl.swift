import TesseraSupport

/// Ends a running recording cleanly: `stop()` makes it take no further segment, write what is
/// already being fetched, and commit — what SIGINT and SIGTERM do in `tessera record`. (Task
/// cancellation instead abandons the recording: nothing is committed.) Safe from any thread.
public final class RecordingControl: Sendable {
    private let state = Lock<(stopped: Bool, handlers: [@Sendable () -> Void])>((false, []))

    /// A control for one recording.
    public init() {}

    /// Asks the recording to finish and commit what it has.
    public func stop() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.stopped else { return [] }
            state.stopped = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Runs `handler` at `stop()` (at once when it was already called).
    func onStop(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.stopped else { return true }
            state.handlers.append(handler)
            return false
        }
        if now { handler() }
    }
}
