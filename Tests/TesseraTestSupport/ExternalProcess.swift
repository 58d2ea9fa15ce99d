import TesseraSupport

/// Runs a program the machine has (ffmpeg, openssl, nginx, a shell) for tests that need real
/// tools, through the one process runner (`ChildProcess`).
public enum ExternalProcess {
    /// A program that could not be started, or a shell command that failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The absolute path of `name` on PATH, or nil.
    public static func find(_ name: String) -> String? { ChildProcess.find(name) }

    /// Runs `tool` (an absolute path) with `arguments` and waits; returns its exit status and
    /// what it wrote to stdout and stderr.
    /// - Throws: `Failure` when it cannot be started.
    public static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let outcome = ChildProcess.run(tool, arguments)
        guard outcome.status >= 0 else { throw Failure(description: outcome.errors) }
        return (outcome.status, outcome.output, outcome.errors)
    }

    /// Runs `command` with /bin/sh and returns its stdout.
    /// - Throws: `Failure` when it cannot be started or exits with a status other than 0.
    @discardableResult
    public static func shell(_ command: String) throws -> String {
        let result = try run("/bin/sh", ["-c", command])
        guard result.status == 0 else {
            throw Failure(description: "command failed (\(result.status)): \(command.prefix(80)): \(result.errors.prefix(200))")
        }
        return result.output
    }
}
