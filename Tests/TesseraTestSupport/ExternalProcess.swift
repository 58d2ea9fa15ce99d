#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs a program the machine has (ffmpeg, openssl, nginx, a shell) for tests that need real
/// tools: posix_spawn with stdin from /dev/null and stdout/stderr to temporary files, so no pipe
/// can fill up and no reader thread is needed. Not Foundation's `Process`: its exit detection
/// waits for descriptors that a daemon it started (nginx) inherits.
public enum ExternalProcess {
    /// A program that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The absolute path of `name` on PATH, or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` (an absolute path) with `arguments` and waits; returns its exit status and
    /// what it wrote to stdout and stderr.
    /// - Throws: `Failure` when it cannot be started.
    public static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let folder = try TemporaryDirectory()
        let outputPath = folder.url.appendingPathComponent("stdout").path
        let errorsPath = folder.url.appendingPathComponent("stderr").path
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
        guard started == 0 else { throw Failure(description: "could not start \(tool): \(String(cString: strerror(started)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, try String(contentsOfFile: outputPath, encoding: .utf8), try String(contentsOfFile: errorsPath, encoding: .utf8))
    }

    /// Runs `command` with /bin/sh and returns its stdout.
    @discardableResult
    /// - Throws: `Failure` when it cannot be started or exits with a status other than 0.
    public static func shell(_ command: String) throws -> String {
        let result = try run("/bin/sh", ["-c", command])
        guard result.status == 0 else {
            throw Failure(description: "command failed (\(result.status)): \(command.prefix(80)): \(result.errors.prefix(200))")
        }
        return result.output
    }
}
