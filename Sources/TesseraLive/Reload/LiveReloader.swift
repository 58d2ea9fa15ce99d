#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Follows a live media playlist (or the variant a selection policy takes from a multivariant
/// one) through the caller's `HLSClient`: the first load, then each
/// reload as the `ReloadScheduler` plans it (blocking, delta, poll; the recoveries after a
/// refused blocking request or an unprovable delta), every wait on the client's clock. Each
/// reload becomes a `LiveSnapshot` sent to a `SnapshotChannel` (never queued: a slow consumer
/// gets them coalesced). A failed reload is retried as `OutageBackoff` says for as long as the
/// outage is shorter than the limit (the playlist's window by default), each retry reported;
/// the snapshot after it names the media sequences never seen. Ends at EXT-X-ENDLIST (the
/// final snapshot delivered first), on cancellation, or with the typed error past the limit.
public struct LiveReloader: Sendable {
    /// How it follows the playlist.
    public struct Options: Sendable {
        /// The longest outage tried through; nil: the playlist's window (at least one target
        /// duration). A recorder passes a longer one.
        public var outageLimit: Duration?
        /// The parser (its byte limit bounds every reload).
        public var parser = PlaylistParser()
        /// The variant followed when the URL is a multivariant playlist. Default: the best.
        public var selection = SelectionPolicy()
        /// Low-Latency CDN tune-in: a response a cache held (`Age`) moves the next blocking
        /// request on by as much (`TuneIn`). Default true.
        public var tuneIn = true
        /// The defaults.
        public init() {}
    }

    /// What the reloader reports beside its snapshots.
    public enum Event: Sendable, Equatable {
        /// A reload failed and is tried again after `wait` (the `attempt`th retry of this outage).
        case retry(attempt: Int, wait: Duration, reason: String)
        /// The server refused a blocking request (400 or 503): one plain reload follows.
        case blockingRefused(status: Int)
        /// A delta update could not be merged: one whole reload follows.
        case deltaRefused(reason: String)
    }

    private let url: URL
    private let client: HLSClient
    private let options: Options
    private let onEvent: @Sendable (Event) -> Void

    /// A reloader of the media playlist at `url` through `client`.
    public init(url: URL, client: HLSClient, options: Options = Options(), onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.url = url
        self.client = client
        self.options = options
        self.onEvent = onEvent
    }

    /// Follows the playlist, sending each snapshot to `channel`, which it finishes when it ends.
    /// - Throws: the load's error (`fetch-failed`, `http-status`, `invalid-playlist`,
    ///   `multivariant-playlist`) once an outage has lasted the limit; `cancelled`.
    public func run(into channel: SnapshotChannel) async throws(HLSError) {
        defer { channel.finish() }
        try await client.withFetcher { fetcher throws(HLSError) in try await follow(fetcher, channel) }
    }

    /// The media playlist to follow — `url`, or the variant `options.selection` chooses when it
    /// is a multivariant playlist — and, when `url` was it, its first load.
    private func entry(_ fetcher: ResourceFetcher) async throws(HLSError) -> (url: URL, first: MediaPlaylist?, age: Double) {
        let request = HTTPRequest(url: url, purpose: .mediaPlaylist)
        let response = try await fetcher.fetch(request, what: "Live playlist", limit: options.parser.limits.maximumBytes)
        let playlist = try parse(response, request).get()
        guard case .multivariant(let multivariant) = playlist else {
            guard case .media(let media) = playlist else { preconditionFailure("a playlist is one kind or the other") }
            return (response.head.url, media, Self.age(response.head))
        }
        let selection = PresentationSelector.select(options.selection, from: multivariant)
        guard let index = selection.variant else {
            throw HLSError(.noMatchingVariant, "\(URLRedaction.redact(response.head.url)): \(selection.reasons.last ?? "no variant qualifies").")
        }
        let variant = multivariant.variants[index]
        return (try ResourceURL.resolve(variant.uri, against: response.head.url, what: "The variant of line \(variant.line.number)"), nil, 0)
    }

    /// The playlist in `response` to `request`.
    private func parse(_ response: (head: HTTPResponseHead, body: [UInt8]), _ request: HTTPRequest) -> Result<Playlist, HLSError> {
        do { return .success(try options.parser.parse(response.body, context: ParseContext(playlistURL: response.head.url)).playlist) } catch {
            return .failure(HLSError(.invalidPlaylist, "\(URLRedaction.redact(request.url)) is not a usable playlist: \(error)", cause: error))
        }
    }

    /// The response's `Age`, seconds (0 when absent or not a number).
    private static func age(_ head: HTTPResponseHead) -> Double {
        head.headers["Age"].flatMap { Double($0) }.map { max(0, $0) } ?? 0
    }

    /// The entry, tried through an outage at tune-in as later reloads are (6 s taken as the
    /// target duration until a playlist says).
    private func tuneIn(_ fetcher: ResourceFetcher, _ clock: ElapsedClock) async throws(HLSError) -> (url: URL, first: MediaPlaylist?, age: Double) {
        var backoff = OutageBackoff(targetDuration: .seconds(6), window: .seconds(6), limit: options.outageLimit)
        let start = clock.elapsed()
        while true {
            do throws(HLSError) { return try await entry(fetcher) } catch {
                guard error.code == .fetchFailed || error.code == .httpStatus, !Task.isCancelled else { throw error }
                switch backoff.failed(outageSoFar: clock.elapsed() - start) {
                case .retry(let wait, let attempt):
                    onEvent(.retry(attempt: attempt, wait: wait, reason: error.message))
                    try await Self.sleep(wait, clock)
                case .giveUp(let after, let attempts):
                    throw HLSError(error.code, "\(URLRedaction.redact(url)) could not be loaded for \(Self.text(after)) (\(attempts) attempts): \(error.message)", cause: error)
                }
            }
        }
    }

    private func follow(_ fetcher: ResourceFetcher, _ channel: SnapshotChannel) async throws(HLSError) {
        let clock = ElapsedClock(client.clock)
        let (url, first, firstAge) = try await tuneIn(fetcher, clock)
        var cachedAge = firstAge
        var tuneInGoal: Double?
        /// Whether the last load changed the playlist (§6.3.4 polls sooner after a change).
        var changed = true
        var scheduler = ReloadScheduler()
        var held: MediaPlaylist?
        var receivedAt = Duration.zero
        var loadStart = Duration.zero
        if let first {
            channel.send(Self.snapshot(first, after: nil, mode: .full, at: clock.elapsed(), missed: nil))
            if first.hasEndList { return }
            held = first
            receivedAt = clock.elapsed()
        }
        var backoff: OutageBackoff?
        var outageStart: Duration?
        while true {
            var plan = ReloadScheduler.Plan(mode: .full, directives: nil, wait: .zero, timeout: nil)
            if let held {
                let now = clock.elapsed()
                guard let next = scheduler.next(after: held, changed: changed, age: now - receivedAt, sinceLoadStart: now - loadStart) else { return }
                plan = next
                if options.tuneIn, cachedAge > 0, let directives = next.directives, directives.blocks {
                    let adjusted = TuneIn.adjust(directives, after: held, age: cachedAge, sinceAdvanced: 0, previousGoal: tuneInGoal)
                    tuneInGoal = adjusted.goal
                    plan = adjusted.directives.map { ReloadScheduler.Plan(mode: next.mode, directives: $0, wait: next.wait, timeout: next.timeout) }
                        ?? ReloadScheduler.Plan(mode: .full, directives: nil, wait: .zero, timeout: nil)
                }
            }
            if plan.wait > .zero { try await Self.sleep(plan.wait, clock) }
            loadStart = clock.elapsed()
            var request = HTTPRequest(url: DeliveryDirectives.url(url, with: plan.directives), purpose: .mediaPlaylist)
            request.limits.maximumBodyBytes = UInt64(options.parser.limits.maximumBytes)
            if let timeout = plan.timeout { request.limits.timeToFirstByte = timeout }
            let outcome = await reload(request, plan: plan, held: held, fetcher: fetcher)
            switch outcome {
            case .refusedBlocking(let status):
                onEvent(.blockingRefused(status: status))
                scheduler.blockingRefused()
            case .refusedDelta(let reason):
                onEvent(.deltaRefused(reason: reason))
                scheduler.deltaRefused()
            case .failed(let error):
                if error.code == .cancelled || Task.isCancelled { throw HLSError(.cancelled, "Following the live playlist was cancelled.") }
                scheduler.resetRefusals()
                let now = clock.elapsed()
                let started = outageStart ?? now
                outageStart = started
                let target = Duration.seconds(held?.targetDuration ?? 6)
                let window = Duration.milliseconds(Int64((held?.segments.reduce(0) { $0 + $1.duration } ?? 0) * 1000))
                var policy = backoff ?? OutageBackoff(targetDuration: target, window: window, limit: options.outageLimit)
                let decision = policy.failed(outageSoFar: now - started)
                backoff = policy
                switch decision {
                case .retry(let wait, let attempt):
                    onEvent(.retry(attempt: attempt, wait: wait, reason: error.message))
                    try await Self.sleep(wait, clock)
                    loadStart = clock.elapsed()
                case .giveUp(let after, let attempts):
                    throw HLSError(error.code, "\(URLRedaction.redact(url)) could not be reloaded for \(Self.text(after)) (\(attempts) attempts): \(error.message)", cause: error)
                }
            case .loaded(let playlist, let age):
                cachedAge = age
                if plan.directives?.blocks == true { scheduler.resetRefusals() }
                changed = held.map { Self.edge(of: $0) != Self.edge(of: playlist) || $0.hasEndList != playlist.hasEndList } ?? true
                let missed = outageStart == nil ? nil
                    : OutageBackoff.missed(lastSeen: held?.segments.last?.mediaSequence, firstNow: playlist.segments.first?.mediaSequence ?? playlist.mediaSequence)
                channel.send(Self.snapshot(playlist, after: held, mode: plan.mode, at: clock.elapsed(), missed: missed))
                held = playlist
                receivedAt = clock.elapsed()
                backoff = nil
                outageStart = nil
                if playlist.hasEndList { return }
            }
        }
    }

    /// What one reload gave.
    private enum Outcome {
        case loaded(MediaPlaylist, age: Double)
        case refusedBlocking(Int)
        case refusedDelta(String)
        case failed(HLSError)
    }

    private func reload(_ request: HTTPRequest, plan: ReloadScheduler.Plan, held: MediaPlaylist?, fetcher: ResourceFetcher) async -> Outcome {
        let response: (head: HTTPResponseHead, body: [UInt8])
        do { response = try await fetcher.answer(request, what: "Live playlist", limit: options.parser.limits.maximumBytes) } catch {
            return .failed(error)
        }
        if plan.directives?.blocks == true, response.head.status == 400 || response.head.status == 503 {
            return .refusedBlocking(response.head.status)
        }
        guard response.head.isSuccess else {
            return .failed(HLSError(.httpStatus, "The live playlist \(URLRedaction.redact(request.url)) answered HTTP \(response.head.status)."))
        }
        let parsed: Playlist
        switch parse(response, request) {
        case .success(let playlist): parsed = playlist
        case .failure(let error): return .failed(error)
        }
        guard case .media(let playlist) = parsed else {
            return .failed(HLSError(.multivariantPlaylist, "\(URLRedaction.redact(request.url)) is a multivariant playlist; the reloader follows one media playlist."))
        }
        let age = Self.age(response.head)
        guard let held else { return playlist.skip == nil ? .loaded(playlist, age: age) : .refusedDelta("a first load cannot be a delta update") }
        switch DeltaMerge.merge(playlist, into: held) {
        case .success(let merged): return .loaded(merged, age: age)
        case .failure(let refusal): return .refusedDelta(refusal.reason)
        }
    }

    /// The live edge: the last segment's media sequence number and the parts after it.
    private static func edge(of playlist: MediaPlaylist) -> [UInt64] {
        [playlist.segments.last?.mediaSequence ?? playlist.mediaSequence, UInt64(playlist.pendingParts.count)]
    }

    /// The snapshot of `playlist` after `held`: the segments and parts that appeared.
    static func snapshot(_ playlist: MediaPlaylist, after held: MediaPlaylist?, mode: ReloadScheduler.Mode, at: Duration,
                         missed: ClosedRange<UInt64>?) -> LiveSnapshot {
        let last = playlist.segments.last?.mediaSequence
        let heldLast = held?.segments.last?.mediaSequence
        var newSegments: ClosedRange<UInt64>?
        if let last, let first = playlist.segments.first?.mediaSequence {
            let from = heldLast.map { max(first, $0 &+ 1) } ?? first
            if from <= last { newSegments = from...last }
        }
        // Parts now listed (of the new segments and the one being built) minus those the held
        // copy had of the segment it was building.
        var parts = playlist.pendingParts.count
        if let held, let heldLast {
            parts += playlist.segments.filter { $0.mediaSequence > heldLast }.reduce(0) { $0 + $1.parts.count }
            parts -= held.pendingParts.count
        }
        return LiveSnapshot(playlist: playlist, mode: mode, at: at, newSegments: newSegments, newParts: max(0, parts),
                            missed: missed.map { [$0] } ?? [])
    }

    /// "2.0 s", "0.25 s".
    public static func text(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return FixedDecimal.format(seconds, digits: seconds < 1 ? 2 : 1) + " s"
    }

    private static func sleep(_ duration: Duration, _ clock: ElapsedClock) async throws(HLSError) {
        do { try await clock.sleep(duration) } catch { throw HLSError(.cancelled, "Following the live playlist was cancelled.") }
    }
}
