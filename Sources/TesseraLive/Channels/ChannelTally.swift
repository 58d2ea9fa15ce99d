#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// One channel's `ChannelStatus`, kept from its events: the recording in progress added to what
/// its committed recordings hold. Thread-safe; bounded (the health strip is an hour).
final class ChannelTally: Sendable {
    /// The totals of the committed recordings.
    private struct Base {
        var segments = 0, gaps = 0, retries = 0, restarts = 0
        var duration = 0.0
        var bytes: UInt64 = 0
    }

    private let state: Lock<(status: ChannelStatus, base: Base)>
    private let now: @Sendable () -> Double

    init(name: String, url: URL, now: @escaping @Sendable () -> Double) {
        self.now = now
        state = Lock((ChannelStatus(name: name, source: URLRedaction.redact(url), now: now()), Base()))
    }

    /// The status now (the health strip moved on to this minute).
    var status: ChannelStatus {
        let time = now()
        return state.withLock { state in
            state.status.health.advance(toTime: time)
            return state.status
        }
    }

    func note(_ kind: ChannelEvent.Kind) {
        let time = now()
        state.withLock { state in
            switch kind {
            case .started(let destination, let attempt):
                state.status.state = .recording
                state.status.destination = destination.lastPathComponent
                state.status.attempts = attempt
                state.status.retryAt = nil
                state.status.edgeLag = nil
            case .recording(let event):
                Self.note(event, in: &state.status, base: state.base, at: time)
            case .committed(let report):
                state.base.segments += report.segments
                state.base.gaps += report.gaps
                state.base.retries += report.retries
                state.base.restarts += report.restarts
                state.base.duration += report.duration
                state.base.bytes += report.bytes
                state.status.committed += 1
                state.status.edgeLag = nil
                // An early end is counted by the `failed` event that follows the commit.
                Self.apply(state.base, to: &state.status)
            case .failed(let error, let retryIn):
                Self.error(error.code, error.message, in: &state.status)
                state.status.edgeLag = nil
                state.status.state = retryIn == nil ? .failed : .retrying
                state.status.retryAt = retryIn.map { time + $0.inSeconds }
                if error.code != .cancelled { state.status.health.note(.failed, at: time) }
            case .ended(let ending):
                state.status.state = ending
                state.status.retryAt = nil
                state.status.edgeLag = nil
            }
        }
    }

    private static func note(_ event: LiveRecording.Event, in status: inout ChannelStatus, base: Base, at time: Double) {
        switch event {
        case .progress(let progress):
            status.segments = base.segments + progress.segments
            status.gaps = base.gaps + progress.gaps
            status.retries = base.retries + progress.retries
            status.duration = base.duration + progress.duration
            status.bytes = base.bytes + progress.bytes
            status.edgeLag = progress.edgeLag
            status.lastSegmentAt = time
            status.health.note(.ok, at: time)
        case .job(.gap), .job(.unavailable): status.health.note(.gap, at: time)
        case .job(.reload(.retry)), .job(.reload(.noNewSegment)): status.health.note(.outage, at: time)
        case .job(.sourceRestarted):
            status.restarts += 1
            status.health.note(.restart, at: time)
        default: break
        }
    }

    private static func apply(_ base: Base, to status: inout ChannelStatus) {
        status.segments = base.segments
        status.gaps = base.gaps
        status.retries = base.retries
        status.restarts = base.restarts
        status.duration = base.duration
        status.bytes = base.bytes
    }

    private static func error(_ code: HLSError.Code, _ message: String, in status: inout ChannelStatus) {
        status.errors += 1
        status.lastErrorCode = code.rawValue
        status.lastError = message
    }
}
