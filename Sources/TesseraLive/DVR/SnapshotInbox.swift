import TesseraHLS
import TesseraSupport

/// The snapshots of a recording's tracks (one reloader each) for the one planner, in the order
/// they came, never queued deep: a track's snapshot waiting is coalesced with its newer ones
/// (`LiveSnapshot.coalesced(with:)`), a retry is told once until taken, the end of a track's
/// follow once. At most three items a track wait. An `AsyncSequence` of one consumer; it ends
/// once every track has ended and all is taken, or when the consuming task is cancelled.
final class SnapshotInbox: AsyncSequence, Sendable {
    /// What a track's follow did.
    enum Item: Sendable {
        /// The playlist as reloaded.
        case snapshot(track: Int, LiveSnapshot)
        /// A reload failed and is being retried.
        case retrying(track: Int)
        /// The follow ended: at ENDLIST or cancelled (nil), or with its failure.
        case ended(track: Int, HLSError?)
    }

    private enum Kind: Hashable {
        case snapshot, retrying, ended
    }

    private struct State {
        var order: [(track: Int, kind: Kind)] = []
        var snapshots: [Int: LiveSnapshot] = [:]
        var failures: [Int: HLSError] = [:]
        var ended: Set<Int> = []
        var waiter: CheckedContinuation<Item?, Never>?
        let tracks: Int

        mutating func take() -> Item? {
            guard !order.isEmpty else { return nil }
            let (track, kind) = order.removeFirst()
            switch kind {
            case .snapshot: return .snapshot(track: track, snapshots.removeValue(forKey: track)!)
            case .retrying: return .retrying(track: track)
            case .ended: return .ended(track: track, failures.removeValue(forKey: track))
            }
        }

        var isOver: Bool { order.isEmpty && ended.count == tracks }
    }

    private let state: Lock<State>

    /// An inbox for `tracks` tracks.
    init(tracks: Int) { state = Lock(State(tracks: tracks)) }

    /// Track `track`'s reloader sent `snapshot`.
    func send(_ snapshot: LiveSnapshot, track: Int) {
        deliver(track, { state in
            if let waiting = state.snapshots[track] {
                state.snapshots[track] = waiting.coalesced(with: snapshot)
                return false
            }
            state.snapshots[track] = snapshot
            return true
        }, kind: .snapshot)
    }

    /// Track `track`'s reloader is retrying a failed reload.
    func retrying(track: Int) {
        deliver(track, { state in !state.order.contains { $0.track == track && $0.kind == .retrying } }, kind: .retrying)
    }

    /// Track `track`'s follow ended (with `failure`).
    func end(track: Int, failure: HLSError?) {
        deliver(track, { state in
            guard state.ended.insert(track).inserted else { return false }
            if let failure { state.failures[track] = failure }
            return true
        }, kind: .ended)
    }

    /// Queues an item of `kind` for `track` when `add` says so (under the lock), handing the
    /// oldest item to a waiting consumer.
    private func deliver(_ track: Int, _ add: (inout State) -> Bool, kind: Kind) {
        let (waiter, item) = state.withLock { state -> (CheckedContinuation<Item?, Never>?, Item?) in
            guard !state.ended.contains(track) || kind == .ended else { return (nil, nil) }
            if add(&state) { state.order.append((track, kind)) }
            guard let waiter = state.waiter, let item = state.take() else { return (nil, nil) }
            state.waiter = nil
            return (waiter, item)
        }
        waiter?.resume(returning: item)
    }

    /// The next item, waiting for one; nil once all is over or when the task is cancelled.
    func next() async -> Item? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Item?, Never>) in
                let ready = state.withLock { state -> Item?? in
                    if let item = state.take() { return .some(item) }
                    if state.isOver || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Iterates the items.
    struct AsyncIterator: AsyncIteratorProtocol {
        let inbox: SnapshotInbox
        mutating func next() async -> Item? { await inbox.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(inbox: self) }
}
