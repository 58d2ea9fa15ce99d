#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Runs Content Steering for one session: fetches the steering manifest (through the client,
/// purpose `steering-manifest`, at most `maximumManifestBytes`), applies it to a `SteeringState`,
/// reloads it every TTL, waits out 429s, stops for good after 410, retries other failures after
/// the TTL, penalises failed pathways and readmits them — every wait on the client's clock.
/// Media loading never waits for it: `current` is the pathway in use at any moment.
public actor SteeringController {
    /// The most bytes a steering manifest may have (64 KiB).
    public static let maximumManifestBytes = 64 << 10

    /// The state (pathways, priority, clones, penalties).
    public private(set) var state: SteeringState
    private let fetcher: ResourceFetcher
    private let clock: ElapsedClock
    private let onEvent: @Sendable (SteeringEvent) -> Void
    /// The throughput estimate (bit/s) the next manifest request reports, if any.
    public private(set) var throughput: UInt64?
    private let multivariantURL: URL

    /// A controller of `state` (of the presentation at `url`) through `client`; `onEvent` hears
    /// every event (redacted).
    public init(state: SteeringState, url: URL, client: HLSClient, onEvent: @escaping @Sendable (SteeringEvent) -> Void = { _ in }) {
        self.state = state
        multivariantURL = url
        fetcher = client.fetcher(events: nil)
        clock = ElapsedClock(client.clock)
        self.onEvent = onEvent
    }

    /// The pathway in use.
    public var current: String { state.current }

    /// The throughput (bit/s) the next manifest request reports as `_HLS_throughput`.
    public func report(throughput: UInt64) { self.throughput = throughput }

    /// A playlist or media resource failed on `pathway`: penalise it and take the next one.
    /// When no other pathway is usable and no manifest has arrived yet, the manifest is asked
    /// for now (its clones may offer one). Returns the pathway in use afterwards.
    @discardableResult
    public func pathwayFailed(_ pathway: String) async -> String {
        let events = state.pathwayFailed(pathway, at: clock.elapsed())
        emit(events)
        if state.current == pathway, state.manifestsApplied == 0, !state.isEnded {
            await requestManifest()
        }
        return state.current
    }

    /// Fetches and applies manifests until cancelled or ended by the server: the first at once,
    /// then at each TTL (or Retry-After), lifting penalties as they expire.
    public func run() async {
        while !Task.isCancelled, !state.isEnded {
            let now = clock.elapsed()
            emit(state.advance(to: now))
            if now >= state.nextRequest {
                await requestManifest()
                continue
            }
            let wake = [state.nextRequest, state.nextPenaltyExpiry].compactMap { $0 }.min() ?? state.nextRequest
            do { try await clock.sleep(max(.milliseconds(1), wake - now)) } catch { return }
        }
    }

    /// One manifest request now, and its outcome applied.
    public func requestManifest() async {
        let url: URL
        switch state.request(throughput: throughput) {
        case nil: return
        case .inline(let uri)?:
            guard let bytes = DataURI.decode(uri, limit: Self.maximumManifestBytes) else {
                emit(state.rejected("The data: SERVER-URI is malformed or over \(Self.maximumManifestBytes) bytes.", at: clock.elapsed()))
                return
            }
            emit(state.received(bytes, from: multivariantURL, at: clock.elapsed()))
            return
        case .url(let next)?: url = next
        }
        var request = HTTPRequest(url: url, purpose: .steeringManifest)
        request.limits.maximumBodyBytes = UInt64(Self.maximumManifestBytes)
        let answer: (head: HTTPResponseHead, body: [UInt8])
        do {
            answer = try await fetcher.answer(request, what: "Steering manifest", limit: Self.maximumManifestBytes)
        } catch {
            if error.code == .cancelled { return }
            emit(state.failed(status: nil, retryAfter: nil, at: clock.elapsed()))
            return
        }
        guard answer.head.isSuccess else {
            // An HTTP-date Retry-After is a wall-clock instant; the wait itself runs on the client's clock.
            let now = Int64(Date().timeIntervalSince1970)
            let retryAfter = answer.head.headers["Retry-After"].flatMap { RetryAfter(headerValue: $0, now: now) }?.delay(now: now)
            emit(state.failed(status: answer.head.status, retryAfter: retryAfter, at: clock.elapsed()))
            return
        }
        emit(state.received(answer.body, from: answer.head.url, at: clock.elapsed()))
    }

    private func emit(_ events: [SteeringEvent]) {
        for event in events { onEvent(event) }
    }
}
