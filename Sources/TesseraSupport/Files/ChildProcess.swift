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

    /// Runs `tool` (an absolute path) with `arguments`, waiting at most `timeLimit`.
    package static func run(_ tool: String, _ arguments: [String], timeLimit: Duration = .seconds(600)) -> Outcome {
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
        let finished = DispatchSemaphore(value: 0)
        let status = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        defer { status.deallocate() }
        let waiter = WaitedProcess(pid: pid, status: status)
        DispatchQueue.global().async {
            waiter.wait()
            finished.signal()
        }
        let nanoseconds = Int(timeLimit.components.seconds) * 1_000_000_000 + Int(timeLimit.components.attoseconds / 1_000_000_000)
        let timedOut = finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut
        if timedOut {
            kill(pid, SIGKILL)
            finished.wait()
        }
        let raw = status.pointee
        let exit = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        return Outcome(status: exit, output: read(outputPath), errors: read(errorsPath), timedOut: timedOut)
    }

    /// `run` off the calling task's thread (waiting blocks a thread).
    package static func run(_ tool: String, _ arguments: [String], timeLimit: Duration = .seconds(600)) async -> Outcome {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: run(tool, arguments, timeLimit: timeLimit)) }
        }
    }

    private static func read(_ path: String) -> String {
        // An unreadable capture is reported as empty output: the exit status still says what happened.
        let bytes = (try? FileDescriptorIO.readRegularFile(path, limit: 16 << 20)) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A child waited for on a dispatch thread. `@unchecked Sendable`: `status` is written once by
/// `wait`, before the semaphore the caller waits on is signalled, and read only after.
private final class WaitedProcess: @unchecked Sendable {
    let pid: pid_t
    let status: UnsafeMutablePointer<Int32>

    init(pid: pid_t, status: UnsafeMutablePointer<Int32>) {
        self.pid = pid
        self.status = status
    }

    func wait() {
        while waitpid(pid, status, 0) < 0, errno == EINTR {}
    }
}
