import CMicroHTTPD
import TesseraSupport

/// A suspended connection: a parked request or a deliberately stalled body.
protocol Suspension: AnyObject, Sendable {
    /// When the server gives up waiting and ends it.
    var deadline: ContinuousClock.Instant { get }
    /// Ends it: answer 503, or cut the stalled body. Must be idempotent.
    func expire()
}

/// Every suspended connection of one daemon, so each is resumed exactly once and all are resumed
/// before `MHD_stop_daemon` (which aborts the process if any is still suspended).
final class SuspensionRegistry: Sendable {
    private struct State {
        var entries: [ObjectIdentifier: any Suspension] = [:]
        var isStopping = false
        var isDaemonStopped = false
    }

    private let state = Lock(State())

    /// Suspends `connection` and records `entry`; false (nothing suspended) once stopping.
    func suspend(_ entry: any Suspension, connection: OpaquePointer) -> Bool {
        state.withLock { state in
            guard !state.isStopping else { return false }
            MHD_suspend_connection(connection)
            state.entries[ObjectIdentifier(entry)] = entry
            return true
        }
    }

    /// Forgets `entry` and resumes its connection, unless the daemon is already gone.
    func release(_ entry: any Suspension, connection: OpaquePointer) {
        let resume = state.withLock { state -> Bool in
            guard state.entries.removeValue(forKey: ObjectIdentifier(entry)) != nil else { return false }
            return !state.isDaemonStopped
        }
        if resume { MHD_resume_connection(connection) }
    }

    /// Entries past their deadline.
    func expired(at now: ContinuousClock.Instant) -> [any Suspension] {
        state.withLock { state in state.entries.values.filter { $0.deadline <= now } }
    }

    /// Refuses new suspensions and returns every current one.
    func beginStopping() -> [any Suspension] {
        state.withLock { state in
            state.isStopping = true
            return Array(state.entries.values)
        }
    }

    /// After `MHD_stop_daemon`: nothing may be resumed any more.
    func daemonStopped() {
        state.withLock { $0.isDaemonStopped = true }
    }
}
