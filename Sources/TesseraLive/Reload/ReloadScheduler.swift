import TesseraPlaylist

/// The next reload of a live media playlist and how it is asked for (RFC 8216bis §6.3.4–6.3.7):
/// a blocking reload for the next part or segment when the server offers it, a delta update
/// while the held copy is recent enough, else a timed poll; after a blocking request the server
/// refused (400, 503) one plain reload, and after a delta update that could not be merged one
/// reload without `_HLS_skip`. A pure value: the reload loop tells it what happened.
public struct ReloadScheduler: Sendable, Equatable {
    /// How a snapshot is obtained.
    public enum Mode: String, Sendable, Equatable {
        /// The first load, or a recovery (a plain reload after a refused blocking request).
        case full
        /// `_HLS_msn` without `_HLS_skip`.
        case blocking
        /// Any `_HLS_skip`.
        case delta
        /// A timed plain reload.
        case poll
    }

    /// One reload to make.
    public struct Plan: Sendable, Equatable {
        /// How it is asked for.
        public let mode: Mode
        /// Its Delivery Directives (nil: the plain URL).
        public let directives: DeliveryDirectives?
        /// How long to wait before sending it.
        public let wait: Duration
        /// How long its answer may take (a blocking request is held by the server); nil for the
        /// client's usual limits.
        public let timeout: Duration?

        /// A plan as given.
        public init(mode: Mode, directives: DeliveryDirectives?, wait: Duration, timeout: Duration?) {
            self.mode = mode
            self.directives = directives
            self.wait = wait
            self.timeout = timeout
        }
    }

    private var recovering = false
    /// Blocking requests refused since one was answered.
    private var refusals = 0
    private var withoutSkip = false

    /// A scheduler for a stream just tuned in to.
    public init() {}

    /// The reload after `playlist`, which `changed` (or not) since the copy before it; `age` is
    /// how long ago its response arrived, `sinceLoadStart` how long ago the request for it began.
    public mutating func next(after playlist: MediaPlaylist, changed: Bool, age: Duration, sinceLoadStart: Duration) -> Plan? {
        guard !playlist.hasEndList else { return nil }
        if recovering {
            recovering = false
            // The first refusal is answered by a plain reload at once; a server that keeps
            // refusing gets them half a target duration apart, as an unchanged poll would.
            let wait = refusals > 1 ? Duration.seconds(playlist.targetDuration ?? 6) / 2 : .zero
            return Plan(mode: .full, directives: nil, wait: wait, timeout: nil)
        }
        let directives = DeliveryDirectives.next(after: playlist, age: age, allowSkip: !withoutSkip)
        withoutSkip = false
        let timing = PlaylistReloadTiming(targetDuration: .seconds(playlist.targetDuration ?? 6))
        let lastDuration = Duration.milliseconds(Int64((playlist.segments.last?.duration ?? 0) * 1000))
        let pollWait = max(.zero, timing.minimumWait(after: changed ? .changed(lastSegmentDuration: lastDuration) : .unchanged) - sinceLoadStart)
        guard let directives else { return Plan(mode: .poll, directives: nil, wait: pollWait, timeout: nil) }
        let mode: Mode = directives.skip != nil ? .delta : .blocking
        if directives.blocks {
            return Plan(mode: mode, directives: directives, wait: .zero, timeout: DeliveryDirectives.blockingTimeout(for: playlist))
        }
        return Plan(mode: mode, directives: directives, wait: pollWait, timeout: nil)
    }

    /// The server answered a blocking request with 400 or 503: the next reload is a plain one
    /// (after a wait when it keeps refusing).
    public mutating func blockingRefused() {
        recovering = true
        refusals += 1
    }

    /// A blocking request was answered with a playlist, or a reload failed (the outage policy
    /// paces what follows): refusals start counting again.
    public mutating func resetRefusals() { refusals = 0 }

    /// A delta update could not be merged (`DeltaMerge.Refusal`): the next reload asks for the
    /// whole playlist.
    public mutating func deltaRefused() { withoutSkip = true }
}
