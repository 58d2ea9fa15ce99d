#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Runs another program (ffmpeg, openssl, nginx, a shell) without Foundation: posix_spawn with
/// standard input from /dev/null and standard output and error into files of a private
/// temporary folder (no pipe can fill up, no reader thread), waited for up to a time limit,
/// after which it is killed. Not Foundation's `Process`, whose exit detection also waits for
/// descriptors a daemon it started (nginx) inherits.
package enum ChildProcess {
    /// How a run ended.
    package struct Outcome: Sendable {
        /// The exit status (128 + the signal for a program killed by one; -1 when it could not start).
        package let status: Int32
        /// What it wrote to standard output.
        package let output: String
        /// What it wrote to standard error.
        package let errors: String
        /// Whether it was killed at the time limit.
        package let timedOut: Bool
    }

    /// The absolute path of `name` on PATH, or nil.
    package static func find(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Ends a run early: for a program that does not end by itself (a browser playing until its
    /// page reports), `stop()` kills it as the time limit would, except that the outcome does
    /// not say it timed out.
    package final class Stopper: Sendable {
        private let state = Lock<(event: DispatchSemaphore?, stopped: Bool)>((nil, false))

        package init() {}

        /// Kills the program (now, or as soon as it starts).
        package func stop() {
            state.withLock { state in
                state.stopped = true
                state.event?.signal()
            }
        }

        /// Signals `event` when stopped; true when already stopped.
        fileprivate func attach(_ event: DispatchSemaphore) -> Bool {
            state.withLock { state in
                state.event = event
                return state.stopped
            }
        }
    }

    /// Runs `tool` (an absolute path) with `arguments`, waiting at most `timeLimit` (or until
    /// `stopper` is stopped).
    package static func run(_ tool: String, _ arguments: [String], timeLimit: Duration = .seconds(600), stopper: Stopper? = nil) -> Outcome {
        var template = Array("/tmp/tessera-child-XXXXXX".utf8CString)
        guard let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            return Outcome(status: -1, output: "", errors: "could not create a temporary folder: \(String(cString: strerror(errno)))", timedOut: false)
        }
        let outputPath = folder + "/stdout", errorsPath = folder + "/stderr"
        defer {
            unlink(outputPath)
            unlink(errorsPath)
            rmdir(folder)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, tool, &actions, nil, argv, environ)
        guard started == 0 else {
            return Outcome(status: -1, output: "", errors: "could not start \(tool): \(String(cString: strerror(started)))", timedOut: false)
        }
        // The waiter sees the exit without reaping (the pid stays reserved, so a kill can never
        // reach another process); this thread reaps.
        let event = DispatchSemaphore(value: 0)
        let exited = Lock(false)
        let child = pid
        DispatchQueue.global().async {
            var info = siginfo_t()
            while waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
            exited.withLock { $0 = true }
            event.signal()
        }
        let stopped = stopper?.attach(event) ?? false
        let nanoseconds = Int(timeLimit.components.seconds) * 1_000_000_000 + Int(timeLimit.components.attoseconds / 1_000_000_000)
        let timedOut = !stopped && event.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut
        if !exited.withLock({ $0 }) {
            kill(pid, SIGKILL)
            while !exited.withLock({ $0 }) { event.wait() }
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        let exit = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        return Outcome(status: exit, output: read(outputPath), errors: read(errorsPath), timedOut: timedOut)
    }

    /// `run` off the calling task's thread (waiting blocks a thread).
    package static func run(_ tool: String, _ arguments: [String], timeLimit: Duration = .seconds(600),
                            stopper: Stopper? = nil) async -> Outcome {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: run(tool, arguments, timeLimit: timeLimit, stopper: stopper)) }
        }
    }

    private static func read(_ path: String) -> String {
        // An unreadable capture is reported as empty output: the exit status still says what happened.
        let bytes = (try? FileDescriptorIO.readRegularFile(path, limit: 16 << 20)) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }
}
