#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS

/// What a `ChannelRecorder` reports of one channel (from several threads).
public struct ChannelEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// A recording of the channel started (or resumed) into `destination`; `attempt` counts
        /// the channel's recordings in this run, from 1.
        case started(destination: URL, attempt: Int)
        /// The running recording's own event.
        case recording(LiveRecording.Event)
        /// A recording was committed (`report.end` says why it ended).
        case committed(RecordingReport)
        /// A recording failed, nothing of it committed (its checkpoint kept when the failure is
        /// transient), or it ended early after committing what it had (`committed` came first);
        /// `retryIn` is the wait before the next try, nil when the channel stops.
        case failed(HLSError, retryIn: Duration?)
        /// The channel is over: recorded to its end, stopped, or left failed (`ChannelStatus.State`).
        case ended(ChannelStatus.State)
    }

    /// The channel's name.
    public let channel: String
    /// What happened.
    public let kind: Kind
}
