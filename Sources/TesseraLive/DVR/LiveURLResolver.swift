#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// Resolves a recording's segment and map URIs at fetch time against the playlist the reloader
/// holds now — so a fetch planned on one Content Steering pathway goes to the pathway in use
/// when it is sent — and, when a fetch fails on a pathway the presentation steers away from,
/// has it tried again on the new one: it waits (at most `patience`, on the client's clock) for
/// the reloader to move, as it does after a failed reload.
final class LiveURLResolver: TransferURLResolver, Sendable {
    private struct State {
        var url: URL
        var pathway: String?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var next = 0
    }

    private let state: Lock<State>
    private let clock: ElapsedClock
    /// How long a failed fetch waits for the follow to move to another pathway.
    let patience: Duration

    /// A resolver starting at the playlist `url` (on `pathway`).
    init(url: URL, pathway: String?, clock: ElapsedClock, patience: Duration = .seconds(10)) {
        state = Lock(State(url: url, pathway: pathway))
        self.clock = clock
        self.patience = patience
    }

    /// The reloader holds the playlist from `url` (on `pathway`) now.
    func update(url: URL, pathway: String?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let moved = state.pathway != pathway
            state.url = url
            state.pathway = pathway
            guard moved else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func location(of uri: String, in stream: StreamIdentity) async throws(HLSError) -> ResolvedLocation {
        let (url, pathway) = state.withLock { ($0.url, $0.pathway) }
        return ResolvedLocation(url: try ResourceURL.resolve(uri, against: url, what: "A resource of the recording"), pathway: pathway)
    }

    func recover(from error: HLSError, at location: ResolvedLocation) async -> Bool {
        guard let pathway = location.pathway else { return false }
        if moved(from: pathway) { return true }
        await withTaskGroup(of: Void.self) { group in
            // The sleep throws when cancelled, which is how it ends when the move comes first.
            group.addTask { [clock, patience] in try? await clock.sleep(patience) }
            group.addTask { await self.move(from: pathway) }
            await group.next()
            group.cancelAll()
        }
        return moved(from: pathway)
    }

    private func moved(from pathway: String) -> Bool {
        state.withLock { $0.pathway != pathway }
    }

    /// Returns once the follow is off `pathway` (at once when it already is), or when the task
    /// is cancelled. Checked and registered under one lock: no move is missed.
    private func move(from pathway: String) async {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state -> Bool in
                    guard !Task.isCancelled, state.pathway == pathway else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
