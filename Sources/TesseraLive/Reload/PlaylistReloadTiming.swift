/// When a client may reload a live media playlist (RFC 8216bis §6.3.4): after a load that found
/// the playlist new or changed, wait at least the duration of its last segment, measured from when
/// that load began; after a reload that found it unchanged, wait one-half the target duration.
///
/// A pure value: the live reload loop of a later issue feeds it instants from an injected clock.
public struct PlaylistReloadTiming: Sendable, Equatable {
    /// What the last load found.
    public enum Outcome: Sendable, Equatable {
        /// First load, or the playlist changed; carries the last segment's duration.
        case changed(lastSegmentDuration: Duration)
        /// The playlist was the same as last time.
        case unchanged
    }

    /// The playlist's `EXT-X-TARGETDURATION`.
    public let targetDuration: Duration

    /// Timing for a playlist with `targetDuration`.
    public init(targetDuration: Duration) {
        precondition(targetDuration >= .zero, "a target duration is not negative")
        self.targetDuration = targetDuration
    }

    /// The shortest wait before the next reload, counted from when the last load began.
    public func minimumWait(after outcome: Outcome) -> Duration {
        switch outcome {
        case .changed(let last): max(.zero, last)
        case .unchanged: targetDuration / 2
        }
    }

    /// The earliest instant the next reload may begin, for a load that began at `start`.
    public func earliestReload<Instant: InstantProtocol>(afterLoadStartedAt start: Instant, outcome: Outcome) -> Instant
        where Instant.Duration == Duration {
        start.advanced(by: minimumWait(after: outcome))
    }
}
