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
    private let state = Mutex<(lastDraw: ContinuousClock.Instant?, nextLine: Double, drawn: Bool)>((nil, 0, false))

    init(label: String, onRestart: LiveRecording.RestartPolicy = .continue, interactive: Bool = Terminal.isInteractive) {
        self.label = label
        self.onRestart = onRestart
        self.interactive = interactive
    }

    func show(_ event: LiveRecording.Event) {
        switch event {
        case .planned: break
        case .progress(let progress): update(progress)
        case .resumed: break   // a recording says what it resumed in its own terms (`Notice.resumed`)
        case .checkpointDiscarded(let reason): say("starting over: \(reason)")
        case .retry(let url, let attempt, let delay, let reason): say(RetryLine.text(url: url, attempt: attempt, delay: delay, reason: reason))
        case .steering(let event): say("steering: \(event)")
        case .warning(let text): say("warning: \(text)")
        case .job(let notice): show(notice)
        }
    }

    private func show(_ notice: LiveRecording.Notice) {
        switch notice {
        // A restart is said by the recording's own event, with its track and what was lost.
        case .reload(.sourceRestarted): break
        case .reload(let event): if let line = WatchCommand.line(event) { say(line) }
        case .resumed(let segments, let gaps, let bytes):
            say("resuming: \(segments) segments and \(gaps) gaps (\(ProgressDisplay.bytes(bytes))) verified from the checkpoint")
        case .gap(let mediaSequence, let duration):
            say("gap: media sequence \(mediaSequence) (\(FixedDecimal.format(duration, digits: 1)) s) left the window before it could be fetched")
        case .snapshot(let snapshot):
            say("snapshot: \(snapshot.folder.path) (\(snapshot.segments) segments, \(FixedDecimal.format(snapshot.duration, digits: 1)) s), verified")
        case .snapshotFailed(let reason): say("snapshot failed: \(reason)")
        case .unavailable(let track, let mediaSequence, let reason):
            say("gap: \(track) segment \(mediaSequence) could not be fetched, listed as a gap: \(reason)")
        case .interstitialFailed(let reason): say("interstitial omitted: \(reason)")
        case .partsFellBack(let track, let mediaSequence, let reason):
            say("parts: \(track) segment \(mediaSequence) fetched whole, its parts not promoted: \(reason)")
        case .sourceRestarted(let track, let reason, let lost, _) where onRestart == .end:
            say("source restarted: \(track): \(reason); the recording ends here (--on-restart end), \(FixedDecimal.format(lost, digits: 1)) s lost")
        case .sourceRestarted(let track, let reason, let lost, let gaps):
            say("source restarted: \(track): \(reason); recorded on behind a discontinuity"
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
        Terminal.line((midLine ? "\n" : "") + line, to: .standardError)
    }
}
