import TesseraSupport

/// How `cancelAll()` and `cancel(tag:)` reach one request in flight without cancelling the task
/// that sent it (a worker loop that goes on sending must not stay cancelled).
///
/// A request runs in one of two ways. **Covered**: in a child task the pipeline made for it
/// (`deliver`, coalesced GETs, transports that cannot take a token); cancelling cancels that
/// task, and `guarding` runs operations as they are. **Direct** (the common case — `data` and
/// `send` over `CurlTransport`): in the caller's own task, with no task made and no thread hop;
/// the transport registers an interrupt that cancels its transfer, and each other wait (an
/// interceptor, the token source, a backoff sleep) runs through `guarding`, in a child task of
/// its own that cancelling cancels.
///
/// Interrupts registered after cancellation run at once; after `finish()` (the request is over)
/// cancelling does nothing.
final class RequestCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var isFinished = false
        var interrupts: [@Sendable () -> Void] = []
    }

    /// The request's `cancellationTag`.
    let tag: String?
    /// Whether the whole request runs in a child task that cancelling cancels.
    let isCovered: Bool
    private let state = Lock(State())

    init(tag: String?, covered: Bool) {
        self.tag = tag
        isCovered = covered
    }

    /// Whether the request was cancelled through the pipeline.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels the request: runs every interrupt once, outside the lock. Does nothing once
    /// cancelled or finished.
    func cancel() {
        let interrupts = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isCancelled, !state.isFinished else { return [] }
            state.isCancelled = true
            defer { state.interrupts = [] }
            return state.interrupts
        }
        for interrupt in interrupts { interrupt() }
    }

    /// Runs `interrupt` when the request is cancelled — at once when it already is.
    func onCancel(_ interrupt: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.isFinished { return false }
            if state.isCancelled { return true }
            state.interrupts.append(interrupt)
            return false
        }
        if now { interrupt() }
    }

    /// The request is over: later cancels do nothing and the interrupts are let go.
    func finish() {
        state.withLock { state in
            state.isFinished = true
            state.interrupts = []
        }
    }

    /// Runs `operation` so that cancelling the request cancels it: as it is when the request is
    /// covered, else in a child task (the caller's cancellation is forwarded to it).
    /// - Throws: what `operation` throws.
    func guarding<T: Sendable>(_ operation: @escaping @Sendable () async throws(HTTPError) -> T) async throws(HTTPError) -> T {
        if isCovered { return try await operation() }
        let task = Task.immediate { () async -> Result<T, HTTPError> in
            do throws(HTTPError) { return .success(try await operation()) } catch { return .failure(error) }
        }
        onCancel { task.cancel() }
        return try await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }.get()
    }
}

/// A transport that takes a request's `RequestCancellation` and registers its own interrupt,
/// so the pipeline needs no task to cancel a request through it.
protocol CancellationAwareTransport: HTTPTransport {
    /// `send(_:)`, cancelled also when `cancellation` is.
    func send(_ request: HTTPRequest, cancellation: RequestCancellation?) async throws(HTTPError) -> HTTPResponse
}
