import TesseraPlaylist
import TesseraSupport

/// When a polled live playlist will list its next segment, learned from the reloads, so a
/// reload after a change lands just after the next segment is listed rather than wherever the
/// first load happened to fall in the segment's span (up to a segment duration behind it, for
/// every segment after). RFC 8216bis §6.3.4 sets only the shortest wait; waiting longer is always
/// allowed, and that is the only move this makes.
///
/// The model: the segment of media sequence `m` is listed at `A + end(m)`, `end` its EXTINF and
/// those before it added up from the first playlist seen, `A` unknown within `lo…hi` (seconds on
/// the reloader's clock). A load that began at `S`, was answered at `R` and listed `m` last says
/// `A ≤ R − end(m)` (it was listed by then) and `A > S − end(m) − d` (the next one, of about the
/// last one's duration `d`, was not yet). The bounds widen by `driftPerSecond` for each second
/// between loads (clocks and encoders drift). A load that contradicts them by a little (the
/// segment not yet listed just after the latest instant the model allowed: jitter) moves the
/// upper bound past what it learnt; by more, it starts the model over from that load alone, as
/// does a playlist whose numbering goes back or jumps past its window.
///
/// The next reload: once the bounds are within `lockWidth` (twice that once they have been), just
/// after the latest instant the next segment can be listed (`hi + end(m) + d + margin`); while
/// they are wider, at their middle, which halves them whatever the load finds (at most
/// `maximumProbes` in a row, each costing one segment at most a span of lateness). A model that
/// does not narrow so — its answers slowed by a busy origin or host — is locked as it is, and
/// probed again once drift has widened its bounds by twice `lockWidth` more: locked reloads never
/// narrow them, so without another probe the reloads would fall behind by the drift allowance,
/// 0.7 s an hour. An instant before the shortest wait allowed is moved on by segment durations —
/// for a probe always; for a locked reload when the shortest wait would be more than
/// `skipThreshold` later than the instant (one segment is then seen late, and every one after it
/// on time), else the shortest wait is kept. A pure value; poll mode only (blocking reloads are
/// the server's to time).
public struct PublicationPhase: Sendable, Equatable {
    /// How far bounds on the listing instant widen for each second between loads (200 ppm:
    /// beyond any encoder's clock against ours).
    public static let driftPerSecond = 0.0002
    /// Bounds this close are taken as known, seconds, for segments of `duration` seconds: a
    /// twentieth of a segment, from 0.1 to 0.25 s — a narrower lock costs more probes, and a
    /// probe that misses costs about a segment's lateness once.
    public static func lockWidth(segment duration: Double) -> Double {
        min(0.25, max(0.1, duration / 20))
    }
    /// A load that contradicts the bounds by up to this much is jitter (the bound moves past
    /// it); by more, the listing moved and the model starts over, seconds.
    public static let jitterTolerance = 0.25
    /// How long after the latest possible listing instant the reload is made, seconds.
    public static let margin = 0.05
    /// A reload later than the shortest wait by more than this is moved a segment on, seconds.
    public static let skipThreshold = 0.3
    /// Probes in a row at the middle of the bounds before the model is locked as it is.
    public static let maximumProbes = 6

    /// The newest media sequence seen and its `end`.
    private var newest: UInt64?
    private var newestEnd = 0.0
    private var lastDuration = 0.0
    private var lo = -Double.infinity
    private var hi = Double.infinity
    /// Probes in a row; at `maximumProbes` the model stays locked until it starts over.
    private var probes = 0
    /// Whether the bounds have been within `lockWidth` since the model started: they are probed
    /// again only past twice that (drift widens them slowly; each probe costs a late segment).
    private var settled = false
    /// The bounds' width when the probes last ran out without narrowing them (nil otherwise).
    private var exhaustedWidth: Double?
    private var lastStart: Double?

    /// A model that knows nothing yet.
    public init() {}

    /// A load that began at `start` and was answered at `answered` (both on the reloader's clock,
    /// from any origin) gave `playlist`.
    public mutating func observe(_ playlist: MediaPlaylist, start: Duration, answered: Duration) {
        guard let last = playlist.segments.last, last.duration > 0 else { return }
        let newestNow = last.mediaSequence
        if let newest, newestNow >= newest, newestNow - newest <= UInt64(playlist.segments.count) {
            newestEnd += playlist.segments.reduce(0) { $1.mediaSequence > newest ? $0 + $1.duration : $0 }
        } else {
            reset()
        }
        newest = newestNow
        lastDuration = last.duration
        let low = start.inSeconds - newestEnd - lastDuration
        let high = answered.inSeconds - newestEnd
        let drift = lastStart.map { max(0, start.inSeconds - $0) * Self.driftPerSecond } ?? 0
        lastStart = start.inSeconds
        lo = max(lo - drift, low)
        hi = min(hi + drift, high)
        if lo > hi {
            if lo - hi <= Self.jitterTolerance {
                // Listed a little later than the model allowed (jitter): the bound moves past it.
                hi = lo + Self.margin
            } else {
                // The listing moved (or the model was wrong): start again from this load.
                (lo, hi, probes, settled, exhaustedWidth) = (low, high, 0, false, nil)
            }
        }
    }

    /// The instant (on the reloader's clock) to make the next reload, given the shortest wait
    /// allowed ends at `earliest`: `earliest` itself until a load has been seen. `offset` is added
    /// to the instant aimed at (a recorder of many channels spreads their polls so).
    public mutating func nextReload(earliest: Duration, offset: Duration = .zero) -> Duration {
        guard newest != nil, lo.isFinite, hi.isFinite, lastDuration > 0 else { return earliest }
        let width = hi - lo, lockWidth = Self.lockWidth(segment: lastDuration)
        let narrow = width <= lockWidth * (settled ? 2 : 1)
        if narrow {
            probes = 0
            settled = true
            exhaustedWidth = nil
        } else if probes >= Self.maximumProbes {
            // Locked as it is; once drift has widened the bounds by twice the lock width, probed again.
            let exhausted = exhaustedWidth ?? width
            exhaustedWidth = width > exhausted + 2 * lockWidth ? nil : exhausted
            if exhaustedWidth == nil { probes = 0 }
        }
        let locked = narrow || probes >= Self.maximumProbes
        var aim = (locked ? hi + Self.margin : (lo + hi) / 2) + newestEnd + lastDuration + offset.inSeconds
        let minimum = earliest.inSeconds
        if aim < minimum {
            // A probe is always made (a segment later); a locked reload only when the shortest
            // wait would be later than it by more than the threshold.
            guard !locked || minimum - aim > Self.skipThreshold else { return earliest }
            aim += ((minimum - aim) / lastDuration).rounded(.up) * lastDuration
        }
        // A model that asks for more than two segments' wait is not trusted.
        guard aim - minimum <= 2 * lastDuration else { return earliest }
        if !locked { probes += 1 }
        return .milliseconds(Int64((aim * 1000).rounded(.up)))
    }

    private mutating func reset() {
        newestEnd = 0
        (lo, hi, probes, settled, exhaustedWidth, lastStart) = (-.infinity, .infinity, 0, false, nil, nil)
    }
}
