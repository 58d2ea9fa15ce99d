#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// Resolves a recording's segment and map URIs at fetch time against the playlist its track's
/// reloader holds now — so a fetch planned on one Content Steering pathway goes to the pathway
/// in use when it is sent — and, when a fetch fails on a pathway the presentation steers away
/// from, has it tried again on the new one: it waits (at most `patience`, on the client's clock)
/// for that track's reloader to move, as it does after a failed reload.
final class LiveURLResolver: TransferURLResolver, Sendable {
    private struct Place {
        var url: URL
        var pathway: String?
    }

    private struct State {
        var places: [StreamIdentity: Place]
        var waiters: [Int: (stream: StreamIdentity, continuation: CheckedContinuation<Void, Never>)] = [:]
        var next = 0
        /// The stream of each URL resolved lately on a pathway (two generations of at most
        /// `remembered`: the fetches in flight, the only ones `recover` is asked about, are among
        /// the newest). Without steering, none: nothing is recovered.
        var resolved: [URL: StreamIdentity] = [:]
        var older: [URL: StreamIdentity] = [:]
    }

    private static let remembered = 64

    private let state: Lock<State>
    private let clock: ElapsedClock
    /// How long a failed fetch waits for the follow to move to another pathway.
    let patience: Duration

    /// A resolver of each stream's resources against its playlist URL in `urls` (no pathway yet).
    init(urls: [StreamIdentity: URL], clock: ElapsedClock, patience: Duration = .seconds(10)) {
        state = Lock(State(places: urls.mapValues { Place(url: $0, pathway: nil) }))
        self.clock = clock
        self.patience = patience
    }

    /// `stream`'s reloader holds the playlist from `url` (on `pathway`) now.
    func update(_ stream: StreamIdentity, url: URL, pathway: String?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let moved = state.places[stream]?.pathway != pathway
            state.places[stream] = Place(url: url, pathway: pathway)
            guard moved else { return [] }
            let woken = state.waiters.filter { $0.value.stream == stream }
            for id in woken.keys { state.waiters[id] = nil }
            return woken.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    func location(of uri: String, in stream: StreamIdentity) async throws(HLSError) -> ResolvedLocation {
        guard let place = state.withLock({ $0.places[stream] }) else {
            throw HLSError(.unsupported, "The recording has no stream \(stream).")
        }
        let url = try ResourceURL.resolve(uri, against: place.url, what: "A resource of the recording")
        if place.pathway != nil {
            state.withLock { state in
                if state.resolved.count >= Self.remembered { (state.older, state.resolved) = (state.resolved, [:]) }
                state.resolved[url] = stream
            }
        }
        return ResolvedLocation(url: url, pathway: place.pathway)
    }

    func recover(from error: HLSError, at location: ResolvedLocation) async -> Bool {
        guard let pathway = location.pathway, let stream = stream(at: location) else { return false }
        if moved(stream, from: pathway) { return true }
        await withTaskGroup(of: Void.self) { group in
            // The sleep throws when cancelled, which is how it ends when the move comes first.
            group.addTask { [clock, patience] in try? await clock.sleep(patience) }
            group.addTask { await self.move(stream, from: pathway) }
            await group.next()
            group.cancelAll()
        }
        return moved(stream, from: pathway)
    }

    /// The stream `location` was resolved for.
    private func stream(at location: ResolvedLocation) -> StreamIdentity? {
        state.withLock { $0.resolved[location.url] ?? $0.older[location.url] }
    }

    private func moved(_ stream: StreamIdentity, from pathway: String) -> Bool {
        state.withLock { $0.places[stream]?.pathway != pathway }
    }

    /// Returns once `stream`'s follow is off `pathway` (at once when it already is), or when the task
    /// is cancelled. Checked and registered under one lock: no move is missed.
    private func move(_ stream: StreamIdentity, from pathway: String) async {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state -> Bool in
                    guard !Task.isCancelled, state.places[stream]?.pathway == pathway else { return false }
                    state.waiters[id] = (stream, continuation)
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}
