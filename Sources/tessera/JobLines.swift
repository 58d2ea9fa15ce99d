import TesseraHLS
import TesseraSupport

/// What the media jobs (`download`, `package`) say the same way: their events on stderr, and
/// the end — the result line on stdout (exit 0), or the one error line (exit 1).
enum JobLines {
    /// Runs the job under SIGINT/SIGTERM cancellation — the dry run's description instead when
    /// asked — and prints how it ended; returns the exit status.
    static func run(dryRun: Bool, describe: @escaping @Sendable () async throws(HLSError) -> String,
                    job: @escaping @Sendable () async throws(HLSError) -> String) async -> Int32 {
        end(await SignalCancellation.run { () -> Result<String, HLSError> in
            do throws(HLSError) { return .success(dryRun ? try await describe() : try await job()) } catch { return .failure(error) }
        })
    }

    /// Says `event` on stderr: the plan as `plan` describes it, progress through `progress`.
    static func show<Plan, Progress, Notice>(_ event: JobEvent<Plan, Progress, Notice>, plan: (Plan) -> String,
                                             progress: (Progress) -> Void) {
        switch event {
        case .planned(let summary): Terminal.line(plan(summary), to: .standardError)
        case .resumed(let resources, let bytes):
            Terminal.line("resuming: \(resources) resources (\(ProgressDisplay.bytes(bytes))) verified from the checkpoint", to: .standardError)
        case .checkpointDiscarded(let reason): Terminal.line("starting over: \(reason)", to: .standardError)
        case .retry(let url, let attempt, let delay, let reason):
            Terminal.line(RetryLine.text(url: url, attempt: attempt, delay: delay, reason: reason), to: .standardError)
        case .progress(let value): progress(value)
        case .steering(let steering): Terminal.line(steering.description, to: .standardError)
        case .warning(let text): Terminal.line("warning: \(text)", to: .standardError)
        case .job: break
        }
    }

    /// Prints how the job ended and returns the exit status.
    static func end(_ result: Result<String, HLSError>) -> Int32 {
        switch result {
        case .success(let line):
            Terminal.line(line)
            return 0
        case .failure(let error):
            if Terminal.isInteractive { Terminal.write("\n", to: .standardError) }
            Terminal.error(error.message)
            return 1
        }
    }
}
