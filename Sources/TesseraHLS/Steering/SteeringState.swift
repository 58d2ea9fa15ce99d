#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// Content Steering as a pure state machine (draft-pantos-hls-rfc8216bis §4.4.6.6, §7; the HLS
/// Content Steering Specification): the pathway in use, the manifest's priority and clones,
/// penalties, and when and where to ask next. Time is the steering clock's elapsed `Duration`;
/// nothing here waits or fetches (`SteeringController` does).
public struct SteeringState: Sendable {
    /// The multivariant playlist with every clone applied so far.
    public private(set) var multivariant: MultivariantPlaylist
    /// The pathway in use.
    public private(set) var current: String
    /// The last manifest's PATHWAY-PRIORITY; before one, the playlist's pathways, the initial first.
    public private(set) var priority: [String]
    /// Where a manifest comes from.
    public enum Source: Hashable, Sendable {
        /// Fetched from this URL.
        case url(URL)
        /// A `data:` URI, read in place.
        case inline(String)
    }

    /// Where the next manifest comes from; nil once steering ended (410).
    public private(set) var source: Source?
    /// When the next manifest request is due.
    public private(set) var nextRequest: Duration = .zero
    /// How many manifests were applied.
    public private(set) var manifestsApplied = 0
    /// The TTL in force (300 s before the first manifest).
    public private(set) var ttl: Duration = .seconds(300)
    /// How long a failed pathway is penalised.
    public let penalty: Duration
    private var penalties: [String: Duration] = [:]
    private let multivariantURL: URL

    /// The state of a presentation that declares `steering`, fetched from `url`; the initial
    /// pathway is its PATHWAY-ID, else ".", else (when "." has no variants) the first listed.
    /// - Throws: `invalid-playlist` when SERVER-URI cannot be resolved; `unsupported` for a scheme
    ///   other than http, https and data, or an HTTPS downgrade.
    public init(multivariant: MultivariantPlaylist, url: URL, steering: ContentSteering,
                penalty: Duration = .seconds(300)) throws(HLSError) {
        self.multivariant = multivariant
        multivariantURL = url
        self.penalty = penalty
        if steering.serverURI.lowercased().hasPrefix("data:") {
            source = .inline(steering.serverURI)
        } else {
            source = .url(try ResourceURL.resolve(steering.serverURI, against: url, what: "Steering manifest"))
        }
        let listed = Self.pathways(of: multivariant)
        let initial = steering.pathwayId ?? "."
        let start = listed.contains(initial) ? initial : (listed.first ?? initial)
        current = start
        priority = [start] + listed.filter { $0 != start }
    }

    /// True once the server ended steering (410).
    public var isEnded: Bool { source == nil }

    /// The pathways of the playlist (clones included), in order of appearance.
    public var pathways: [String] { Self.pathways(of: multivariant) }

    /// The next manifest request: the manifest URL with `_HLS_pathway` (the current pathway) and,
    /// when known, `_HLS_throughput` (bit/s) replacing any earlier ones; a `data:` URI as it is.
    public func request(throughput: UInt64?) -> Source? {
        guard case .url(let url) = source else { return source }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return source }
        var items = (components.queryItems ?? []).filter { $0.name != "_HLS_pathway" && $0.name != "_HLS_throughput" }
        items.append(URLQueryItem(name: "_HLS_pathway", value: current))
        if let throughput { items.append(URLQueryItem(name: "_HLS_throughput", value: String(throughput))) }
        components.queryItems = items
        return .url(components.url ?? url)
    }

    /// A manifest arrived from `url` (the URL that answered; relative RELOAD-URIs resolve against it) at `now`: applied, or refused with
    /// the previous state kept; the next request is one TTL away either way.
    public mutating func received(_ bytes: [UInt8], from url: URL, at now: Duration) -> [SteeringEvent] {
        let manifest: SteeringManifest
        do { manifest = try SteeringManifest.parse(bytes) } catch {
            return rejected(error.message, at: now)
        }
        var events: [SteeringEvent] = []
        var added: [String] = []
        for clone in manifest.clones {
            if let cloned = PathwayCloning.apply(clone, to: multivariant, base: multivariantURL) {
                multivariant = cloned
                added.append(clone.id)
            }
        }
        ttl = Self.reloadInterval(manifest.ttl)
        if let reload = manifest.reloadURI {
            switch Self.reloadSource(reload, against: url) {
            case .success(let resolved): source = resolved
            case .failure(let error): events.append(.reloadRefused(reason: error.message))
            }
        }
        priority = manifest.pathwayPriority
        manifestsApplied += 1
        nextRequest = now + ttl
        events.append(.applied(priority: priority, ttl: manifest.ttl, clonesAdded: added))
        events += choose(at: now, reason: "the manifest's priority")
        return events
    }

    /// A manifest that could not be read (not JSON of the format, an undecodable `data:` URI):
    /// the previous state stays and the next request is one TTL away.
    public mutating func rejected(_ reason: String, at now: Duration) -> [SteeringEvent] {
        nextRequest = now + ttl
        return [.rejected(reason: reason)]
    }

    /// The manifest request failed at `now` with `status` (nil: transport or timeout):
    /// 410 ends steering; 429 waits `retryAfter` (else the TTL); anything else retries after the TTL.
    public mutating func failed(status: Int?, retryAfter: Duration?, at now: Duration) -> [SteeringEvent] {
        switch status {
        case 410:
            source = nil
            return [.ended]
        case 429:
            let wait = retryAfter ?? ttl
            nextRequest = now + wait
            return [.throttled(wait: Self.seconds(wait))]
        default:
            nextRequest = now + ttl
            return [.failed(reason: status.map { "HTTP \($0)" } ?? "no answer", retryIn: Self.seconds(ttl))]
        }
    }

    /// A playlist or media resource failed on `pathway` at `now`: it is penalised for `penalty`
    /// and, when it is the current one, the next usable pathway by priority is taken.
    public mutating func pathwayFailed(_ pathway: String, at now: Duration) -> [SteeringEvent] {
        penalties[pathway] = now + penalty
        var events: [SteeringEvent] = [.penalized(pathway: pathway, until: Self.seconds(now + penalty))]
        if pathway == current { events += choose(at: now, reason: "pathway \(pathway) failed") }
        return events
    }

    /// Time passed: expired penalties are lifted and the preferred pathway taken again.
    public mutating func advance(to now: Duration) -> [SteeringEvent] {
        let expired = penalties.filter { $0.value <= now }.map(\.key).sorted()
        guard !expired.isEmpty else { return [] }
        for pathway in expired { penalties[pathway] = nil }
        return expired.map { .readmitted(pathway: $0) } + choose(at: now, reason: "penalty expired")
    }

    /// When the earliest penalty ends, if any is in force.
    public var nextPenaltyExpiry: Duration? { penalties.values.min() }

    /// True while `pathway` is penalised at `now`.
    public func isPenalized(_ pathway: String, at now: Duration) -> Bool {
        penalties[pathway].map { $0 > now } ?? false
    }

    /// The first priority entry that is not penalised and has variants (unknown IDs are
    /// ignored); then the playlist's other pathways.
    private mutating func choose(at now: Duration, reason: String) -> [SteeringEvent] {
        let available = Set(pathways)
        let order = priority + pathways.filter { !priority.contains($0) }
        guard let next = order.first(where: { available.contains($0) && !isPenalized($0, at: now) }) else {
            return [.exhausted(current: current)]
        }
        guard next != current else { return [] }
        let from = current
        current = next
        return [.switched(from: from, to: next, reason: reason)]
    }

    private static func reloadSource(_ uri: String, against url: URL) -> Result<Source, HLSError> {
        if uri.lowercased().hasPrefix("data:") { return .success(.inline(uri)) }
        return Result { () throws(HLSError) -> Source in .url(try ResourceURL.resolve(uri, against: url, what: "Steering RELOAD-URI")) }
    }

    private static func pathways(of playlist: MultivariantPlaylist) -> [String] {
        var seen: [String] = []
        for variant in playlist.variants where !seen.contains(variant.pathwayId ?? ".") { seen.append(variant.pathwayId ?? ".") }
        return seen
    }

    /// The wait a manifest's TTL (seconds, positive) sets before the next request, kept within
    /// `reloadIntervals`: a hostile or broken server can neither make the client ask again at
    /// once, over and over, nor put the next request off past a day (nor past what a `Duration`
    /// holds).
    static func reloadInterval(_ ttl: Double) -> Duration {
        let bounds = reloadIntervals
        let seconds = min(max(ttl, seconds(bounds.lowerBound)), seconds(bounds.upperBound))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The shortest and the longest wait between manifest requests: 1 s and a day.
    static let reloadIntervals: ClosedRange<Duration> = .seconds(1) ... .seconds(86_400)

    static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }
}
