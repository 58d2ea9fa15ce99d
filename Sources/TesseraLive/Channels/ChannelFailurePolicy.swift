/// What a `ChannelRecorder` does when one channel's recording fails or ends early — its origin
/// dead or failing past the outage limit, a source that stopped producing media, a full volume:
/// every other channel records on regardless.
public enum ChannelFailurePolicy: Sendable, Equatable {
    /// Record the channel again after a capped exponential backoff — `initial`, doubled after
    /// each failure in a row, at most `maximum` — into its next folder when the failed recording
    /// committed one. A recording that wrote media starts the count again.
    case retry(initial: Duration = .seconds(1), maximum: Duration = .seconds(60))
    /// Leave the channel failed (its committed media stays).
    case stop

    /// The wait after `failures` failures in a row (from 1); nil under `.stop`.
    public func wait(after failures: Int) -> Duration? {
        guard case .retry(let initial, let maximum) = self else { return nil }
        var wait = initial
        // Doubling past the cap changes nothing: at most 64 steps, however long a channel fails.
        for _ in 1..<max(1, min(failures, 64)) where wait < maximum { wait = wait * 2 }
        return min(wait, maximum)
    }
}
