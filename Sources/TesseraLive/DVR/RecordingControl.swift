import TesseraHLS
import TesseraSupport

/// Steers a running recording from outside: `stop()` ends it cleanly — it takes no further
/// segment, writes what is already being fetched, and commits (what SIGINT and SIGTERM do in
/// `tessera record`; task cancellation instead abandons it: nothing is committed) — and
/// `snapshot()` publishes what it holds so far as its own package. Safe from any thread.
public final class RecordingControl: Sendable {
    typealias SnapshotWaiter = CheckedContinuation<Result<RecordingSnapshot, HLSError>, Never>

    private struct State {
        var stopped = false
        var handlers: [@Sendable () -> Void] = []
        /// Snapshot requests not yet taken, by ID.
        var requests: [Int: SnapshotWaiter] = [:]
        var order: [Int] = []
        /// Requests taken together and being published, by publication; one whose requests were
        /// all withdrawn is abandoned.
        var publications: [Int: [Int: SnapshotWaiter]] = [:]
        var next = 0
        var over = false

        var outstanding: Int { requests.count + publications.values.reduce(0) { $0 + $1.count } }
    }

    private let state = Lock(State())

    /// The most snapshots asked for and not yet published.
    public static let maximumOutstandingSnapshots = 8

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

    /// Publishes what the recording holds at its next complete-segment boundary (at least one
    /// segment written) as an independent, verified, URL-free VOD package beside the destination,
    /// `<dir>.snapshot-<n>` (files hard-linked where the volume allows), while the recording and
    /// its eviction go on. Cancelling the calling task withdraws the request (or discards a
    /// snapshot not yet published).
    /// - Throws: `destination-busy` with `maximumOutstandingSnapshots` outstanding; `cancelled`
    ///   when withdrawn, or when the recording ended first; `destination-exists`,
    ///   `destination-unwritable` (also when it did not verify: nothing is left of it).
    public func snapshot() async throws(HLSError) -> RecordingSnapshot {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: SnapshotWaiter) in
                let refusal = state.withLock { state -> HLSError? in
                    if state.over || Task.isCancelled { return HLSError(.cancelled, "The recording is over (or the request was withdrawn): no snapshot was taken.") }
                    guard state.outstanding < Self.maximumOutstandingSnapshots else {
                        return HLSError(.destinationBusy, "\(Self.maximumOutstandingSnapshots) snapshots are outstanding; ask again once one is published.")
                    }
                    state.requests[id] = continuation
                    state.order.append(id)
                    return nil
                }
                if let refusal { continuation.resume(returning: .failure(refusal)) }
            }
        } onCancel: {
            // Waiting, or taken into a publication that goes on for the others (or is abandoned).
            let waiter = state.withLock { state -> SnapshotWaiter? in
                state.order.removeAll { $0 == id }
                if let waiter = state.requests.removeValue(forKey: id) { return waiter }
                for (publication, waiters) in state.publications where waiters[id] != nil {
                    return state.publications[publication]?.removeValue(forKey: id)
                }
                return nil
            }
            waiter?.resume(returning: .failure(HLSError(.cancelled, "The snapshot request was withdrawn.")))
        }
        return try result.get()
    }

    /// The snapshot requests waiting, taken together into one publication (still outstanding
    /// until `published`); nil when none waits.
    package func takeSnapshotRequests() -> Int? {
        state.withLock { state in
            guard !state.order.isEmpty else { return nil }
            state.next += 1
            state.publications[state.next] = Dictionary(uniqueKeysWithValues: state.order.compactMap { id in state.requests.removeValue(forKey: id).map { (id, $0) } })
            state.order = []
            return state.next
        }
    }

    /// Snapshots asked for and not yet published.
    package var outstandingSnapshots: Int { state.withLock { $0.outstanding } }

    /// Whether a snapshot is asked for.
    var wantsSnapshot: Bool { state.withLock { !$0.order.isEmpty } }

    /// Whether every request of `publication` was withdrawn (nothing is to be published).
    package func isAbandoned(_ publication: Int) -> Bool { state.withLock { $0.publications[publication]?.isEmpty ?? true } }

    /// `publication` is over: its requests still waiting get `result`.
    package func published(_ result: Result<RecordingSnapshot, HLSError>, publication: Int) {
        let waiters = state.withLock { $0.publications.removeValue(forKey: publication) } ?? [:]
        for waiter in waiters.values { waiter.resume(returning: result) }
    }

    /// The recording is over: requests still waiting fail, and later ones are refused.
    package func end() {
        let waiting = state.withLock { state -> [SnapshotWaiter] in
            state.over = true
            defer { state.requests = [:]; state.order = [] }
            return state.order.compactMap { state.requests[$0] }
        }
        for waiter in waiting { waiter.resume(returning: .failure(HLSError(.cancelled, "The recording ended before the snapshot was taken."))) }
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
