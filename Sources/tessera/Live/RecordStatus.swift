#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import TesseraHLS
import TesseraLive
import TesseraSupport

/// What `tessera record` shows while it runs: a redrawn status line on a terminal (recorded
/// seconds, segments, gaps, retries, bytes, how far behind the live edge the files are), plain
/// lines otherwise — one each ten seconds of media — and a line for every retry, gap and
/// reloader event. Thread-safe.
final class RecordStatus: Sendable {
    private let label: String
    /// What a restart of the source does (what its line says).
    private let onRestart: LiveRecording.RestartPolicy
    private let interactive: Bool
    /// Put before every event line: the channel's name when many are recorded.
    private let prefix: String
    private let state = Mutex<(lastDraw: ContinuousClock.Instant?, nextLine: Double, drawn: Bool)>((nil, 0, false))

    init(label: String, onRestart: LiveRecording.RestartPolicy = .continue, interactive: Bool = Terminal.isInteractive, prefixed: Bool = false) {
        self.label = label
        prefix = prefixed ? label + ": " : ""
        self.onRestart = onRestart
        self.interactive = interactive
    }

    func show(_ event: LiveRecording.Event) {
        if case .progress(let progress) = event { return update(progress) }
        if let line = text(of: event) { say(line) }
    }

    /// What a line says of `event`; nil for progress (the status line) and what is said otherwise.
    func text(of event: LiveRecording.Event) -> String? {
        switch event {
        case .planned, .progress: return nil
        case .resumed: return nil   // a recording says what it resumed in its own terms (`Notice.resumed`)
        case .checkpointDiscarded(let reason): return "starting over: \(reason)"
        case .retry(let url, let attempt, let delay, let reason): return RetryLine.text(url: url, attempt: attempt, delay: delay, reason: reason)
        case .steering(let event): return "steering: \(event)"
        case .warning(let text): return "warning: \(text)"
        case .job(let notice): return text(of: notice)
        }
    }

    /// What a line says of `notice`; nil for what is said otherwise (a restart by the recording's
    /// own event).
    func text(of notice: LiveRecording.Notice) -> String? {
        switch notice {
        // A restart is said by the recording's own event, with its track and what was lost.
        case .reload(.sourceRestarted): return nil
        case .reload(let event): return WatchCommand.line(event)
        case .resumed(let segments, let gaps, let bytes):
            return "resuming: \(segments) segments and \(gaps) gaps (\(ProgressDisplay.bytes(bytes))) verified from the checkpoint"
        case .gap(let mediaSequence, let duration):
            return "gap: media sequence \(mediaSequence) (\(FixedDecimal.format(duration, digits: 1)) s) left the window before it could be fetched"
        case .snapshot(let snapshot):
            return "snapshot: \(snapshot.folder.path) (\(snapshot.segments) segments, \(FixedDecimal.format(snapshot.duration, digits: 1)) s), verified"
        case .snapshotFailed(let reason): return "snapshot failed: \(reason)"
        case .unavailable(let track, let mediaSequence, let reason):
            return "gap: \(track) segment \(mediaSequence) could not be fetched, listed as a gap: \(reason)"
        case .interstitialFailed(let reason): return "interstitial omitted: \(reason)"
        case .partsFellBack(let track, let mediaSequence, let reason):
            return "parts: \(track) segment \(mediaSequence) fetched whole, its parts not promoted: \(reason)"
        case .sourceRestarted(let track, let reason, let lost, _) where onRestart == .end:
            return "source restarted: \(track): \(reason); the recording ends here (--on-restart end), \(FixedDecimal.format(lost, digits: 1)) s lost"
        case .sourceRestarted(let track, let reason, let lost, let gaps):
            return ("source restarted: \(track): \(reason); recorded on behind a discontinuity"
                + (gaps > 0 ? ", \(FixedDecimal.format(lost, digits: 1)) s lost declared as \(gaps) gap\(gaps == 1 ? "" : "s")" : ", nothing lost"))
        }
    }

    /// Ends the status line.
    func finish() {
        if interactive, state.withLock({ $0.drawn }) { Terminal.write("\n", to: .standardError) }
    }

    private func update(_ progress: RecordingProgress) {
        let text = "\(label): \(FixedDecimal.format(progress.duration, digits: 1)) s, \(progress.segments) segments, \(progress.gaps) gaps, "
            + "\(progress.retries) retries, \(ProgressDisplay.bytes(progress.bytes)), lag \(FixedDecimal.format(progress.edgeLag, digits: 1)) s"
        let now = ContinuousClock.now
        let draw = state.withLock { state -> Bool in
            if interactive {
                guard state.lastDraw.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
                state.lastDraw = now
                state.drawn = true
                return true
            }
            guard progress.duration >= state.nextLine else { return false }
            state.nextLine = (progress.duration / 10).rounded(.down) * 10 + 10
            return true
        }
        guard draw else { return }
        if interactive { Terminal.write("\r" + text + "   ", to: .standardError) } else { Terminal.line(text, to: .standardError) }
    }

    private func say(_ line: String) {
        let midLine = interactive && state.withLock { state -> Bool in defer { state.drawn = false }; return state.drawn }
        Terminal.line((midLine ? "\n" : "") + prefix + line, to: .standardError)
    }
}
