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
/// the snapshot after it names the media sequences never seen. A blocking request unanswered
/// past `DeliveryDirectives.blockingTimeout(for:)` is followed by one plain reload, as a refused
/// one is. When the presentation steers (Content Steering) and the variant has a
/// STABLE-VARIANT-ID, the follow stays on the steering manifest's pathway and a failed reload
/// moves it to the equivalent variant on the next pathway at once (`LiveSteering`); only when
/// every pathway has failed does the outage policy wait. Ends at EXT-X-ENDLIST (the final
/// snapshot delivered first), on cancellation, or with the typed error past the limit.
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
        /// A rendition of the chosen variant's groups followed instead of the variant (a
        /// multivariant URL only). Default nil: the variant.
        public var rendition: RenditionChoice?
        /// Low-Latency CDN tune-in: a response a cache held (`Age`) moves the next blocking
        /// request on by as much (`TuneIn`). Default true.
        public var tuneIn = true
        /// Follow Content Steering (pathway priority, failover) when the presentation steers.
        /// Default true.
        public var steering = true
        /// How long a failed pathway is avoided (unless the steering manifest says otherwise).
        public var steeringPenalty: Duration = .seconds(300)
        /// Time polls to land just after the next segment is listed (`PublicationPhase`), never
        /// sooner than §6.3.4 allows. Default true; false polls at the shortest wait.
        public var alignPolls = true
        /// Added to each aligned poll: a recorder of many channels spreads their polls over a
        /// fraction of a second so that channels of one cadence do not reload at the same instant.
        var pollOffset: Duration = .zero
        /// A steering controller the caller runs for several follows (a recording's tracks):
        /// followed instead of one of the reloader's own. Default nil.
        package var sharedSteering: SteeringController?
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
        /// A blocking request went unanswered for `after`: one plain reload follows.
        case blockingTimedOut(after: Duration)
        /// A response's live edge (`segment.parts`) was behind the held copy's: it was set aside
        /// (a cache behind the origin) and the next part asked for again; after
        /// `regressionsTolerated` in a row the stream is taken to have restarted there.
        case edgeRegressed(held: String, got: String)
        /// A response whose edge was behind the held copy's is the source started again (an
        /// encoder restarted, a stream replaced; `reason` says how it shows — `SourceRestart`):
        /// it was taken at once, as the playlist from here on.
        case sourceRestarted(reason: String)
        /// The playlist has listed no new segment for `waited` (the next was due a target
        /// duration after the last): no new media is an outage whether or not the origin answers,
        /// and the follow ends with `source-stopped` after `endsAfter` more of it.
        case noNewSegment(waited: Duration, endsAfter: Duration)
        /// The follow moved to the equivalent variant on another pathway.
        case pathwayChanged(from: String, to: String, reason: String)
        /// What Content Steering did (manifest loads, penalties, priority changes).
        case steering(SteeringEvent)
    }

    let url: URL
    let client: HLSClient
    let options: Options
    let onEvent: @Sendable (Event) -> Void

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
        try await client.withFetcher { fetcher throws(HLSError) in try await follow(PlaylistLoader(fetcher: fetcher, parser: options.parser), channel) }
    }

    /// Where a follow starts: the media playlist's URL, its first load when `url` was it, the
    /// response's `Age`, the steering when the presentation steers, and the variables a media
    /// playlist may import (the multivariant playlist's, when `url` was one).
    struct Entry: Sendable {
        let url: URL
        let first: MediaPlaylist?
        let age: Double
        let freshness: LiveHealth.Freshness?
        let steering: LiveSteering?
        let pathway: String?
        var variables: [String: String] = [:]
    }

    /// The media playlist to follow — `url`, or the variant `options.selection` chooses when it
    /// is a multivariant playlist — and, when `url` was it, its first load.
    private func entry(_ loader: PlaylistLoader) async throws(HLSError) -> Entry {
        let request = HTTPRequest(url: url, purpose: .mediaPlaylist)
        let response = try await loader.fetch(request, what: "Live playlist")
        let parsed = try loader.parse(response.body, at: response.head.url, named: request.url)
        guard case .multivariant(let multivariant) = parsed.playlist else {
            guard case .media(let media) = parsed.playlist else { preconditionFailure("a playlist is one kind or the other") }
            return Entry(url: response.head.url, first: media, age: Self.age(response.head), freshness: LiveHealth.Freshness(headers: response.head.headers),
                         steering: nil, pathway: nil)
        }
        let selection = PresentationSelector.select(options.selection, from: multivariant)
        guard let index = selection.variant else {
            throw HLSError(.noMatchingVariant, "\(URLRedaction.redact(response.head.url)): \(selection.reasons.last ?? "no variant qualifies").")
        }
        let variant = multivariant.variants[index]
        var uri = variant.uri
        var what = "The variant of line \(variant.line.number)"
        var equivalent = variant.stableVariantId.map { PathwayEquivalent.variant(stableId: $0) }
        if let choice = options.rendition {
            let group = choice.group(of: variant)
            guard let rendition = multivariant.renditions.first(where: { $0.type == choice.type && $0.groupId == group && $0.name == choice.name }),
                  let renditionURI = rendition.uri else {
                throw HLSError(.noMatchingVariant, "\(URLRedaction.redact(response.head.url)): the chosen variant's \(choice.type) group has no rendition named \"\(choice.name)\" with its own playlist.")
            }
            uri = renditionURI
            what = "The rendition of line \(rendition.line.number)"
            equivalent = if let id = rendition.stableRenditionId, let variantId = variant.stableVariantId {
                .rendition(stableId: id, type: choice.type, variant: variantId)
            } else {
                nil
            }
        }
        let variantURL = try ResourceURL.resolve(uri, against: response.head.url, what: what)
        let onEvent = self.onEvent
        let steering = options.steering
            ? try LiveSteering.of(equivalent, in: multivariant, at: response.head.url, client: client, penalty: options.steeringPenalty,
                                  shared: options.sharedSteering) { onEvent(.steering($0)) }
            : nil
        return Entry(url: variantURL, first: nil, age: 0, freshness: nil, steering: steering, pathway: steering.map { _ in selection.pathway },
                     variables: parsed.variables)
    }

    /// The response's `Age`, seconds (0 when absent or not a number).
    static func age(_ head: HTTPResponseHead) -> Double {
        head.headers["Age"].flatMap { Double($0) }.map { max(0, $0) } ?? 0
    }

    /// The entry, tried through an outage at tune-in as later reloads are (6 s taken as the
    /// target duration until a playlist says).
    func tuneIn(_ loader: PlaylistLoader, _ clock: ElapsedClock) async throws(HLSError) -> Entry {
        var backoff = OutageBackoff(targetDuration: .seconds(6), window: .seconds(6), limit: options.outageLimit)
        let start = clock.elapsed()
        while true {
            do throws(HLSError) { return try await entry(loader) } catch {
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

    /// The live edge: the last segment's media sequence number and the parts after it.
    static func edge(of playlist: MediaPlaylist) -> [UInt64] {
        [playlist.segments.last?.mediaSequence ?? playlist.mediaSequence, UInt64(playlist.pendingParts.count)]
    }

    /// The snapshot of `playlist` after `held`: the segments and parts that appeared.
    static func snapshot(_ playlist: MediaPlaylist, after held: MediaPlaylist?, mode: ReloadScheduler.Mode, at: Duration,
                         missed: ClosedRange<UInt64>?, pathway: String? = nil, freshness: LiveHealth.Freshness? = nil,
                         url: URL? = nil) -> LiveSnapshot {
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
                            missed: missed.map { [$0] } ?? [], pathway: pathway, freshness: freshness,
                            url: url.map { DeliveryDirectives.url($0, with: nil) })
    }

    /// "2.0 s", "0.25 s".
    public static func text(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return FixedDecimal.format(seconds, digits: seconds < 1 ? 2 : 1) + " s"
    }

    static func sleep(_ duration: Duration, _ clock: ElapsedClock) async throws(HLSError) {
        do { try await clock.sleep(duration) } catch { throw HLSError(.cancelled, "Following the live playlist was cancelled.") }
    }
}
