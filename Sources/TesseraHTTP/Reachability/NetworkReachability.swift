import TesseraSupport

/// The latest network path from a source (the Linux netlink monitor, or a test's own), and a
/// wait for a satisfied one. One task reads the source for the object's life; `changes()` gives
/// each caller a bounded stream of the paths from then on.
///
/// ```swift
/// let reachability = NetworkReachability()               // LinuxNetworkPathMonitor
/// for await path in reachability.changes() { print(path) }   // "satisfied (wired)"
/// ```
public final class NetworkReachability: Sendable {
    private struct State {
        var path: NetworkPath?
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var subscribers: [UInt64: AsyncStream<NetworkPath>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Lock(State())
    private let reader = Lock<Task<Void, Never>?>(nil)

    /// Follows `source` (the system's path by default).
    public init(source: any NetworkPathSource = LinuxNetworkPathMonitor()) {
        let task = Task { [weak self] in
            for await path in source.paths() {
                guard let self else { return }
                self.update(path)
            }
        }
        reader.withLock { $0 = task }
    }

    deinit { reader.withLock { $0?.cancel() } }

    /// The latest path, or nil before the source said anything.
    public var path: NetworkPath? { state.withLock { $0.path } }

    /// Callers waiting for a satisfied path now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// The paths from now on (the latest first, when known); the newest 16 are kept for a slow
    /// reader.
    public func changes() -> AsyncStream<NetworkPath> {
        let (stream, continuation) = AsyncStream<NetworkPath>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            if let path = state.path { continuation.yield(path) }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    /// Returns once the path is satisfied (at once when it is, or not known yet), or when the
    /// calling task is cancelled.
    public func waitForSatisfiedPath() async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.path?.isSatisfied ?? true || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func update(_ path: NetworkPath) {
        let (waiters, subscribers) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [AsyncStream<NetworkPath>.Continuation]) in
            state.path = path
            let subscribers = Array(state.subscribers.values)
            guard path.isSatisfied else { return ([], subscribers) }
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), subscribers)
        }
        for subscriber in subscribers { subscriber.yield(path) }
        for waiter in waiters { waiter.resume() }
    }
}
