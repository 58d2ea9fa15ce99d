extension LiveRecording {
    /// What only a recording reports (the `job` events of `LiveRecording.Event`).
    public enum Notice: Sendable {
        /// The live reloader's own events (retries, refusals, pathway moves).
        case reload(LiveReloader.Event)
        /// Media sequence `mediaSequence` left the window before it could be fetched: a gap.
        case gap(mediaSequence: UInt64, duration: Double)
        /// Segment `mediaSequence` of track `track` could not be fetched (`reason`: the error,
        /// URLs redacted): a gap, the recording goes on — unless `maximumConsecutiveUnavailable`
        /// in a row could not.
        case unavailable(track: String, mediaSequence: UInt64, reason: String)
        /// An interrupted recording is continued: what its checkpoint vouched for.
        case resumed(segments: Int, gaps: Int, bytes: UInt64)
        /// An in-progress snapshot was published (`RecordingControl.snapshot()`).
        case snapshot(RecordingSnapshot)
        /// An in-progress snapshot failed (the recording goes on).
        case snapshotFailed(reason: String)
        /// Segment `mediaSequence` of track `track` had parts staged that could not be proven to
        /// be it (`reason`): it is fetched whole.
        case partsFellBack(track: String, mediaSequence: UInt64, reason: String)
        /// An interstitial's assets could not be packaged (`reason`, URLs redacted): the Date
        /// Ranges naming them are omitted whole.
        case interstitialFailed(reason: String)
        /// Track `track`'s source restarted (`reason` says how it showed); `lost` seconds of media
        /// between what was recorded and the new source's first segment are declared as `gaps`
        /// gap entries (estimated), and the new source follows behind a discontinuity — unless
        /// `Options.onRestart` ends the recording there.
        case sourceRestarted(track: String, reason: String, lost: Double, gaps: Int)
    }
}
