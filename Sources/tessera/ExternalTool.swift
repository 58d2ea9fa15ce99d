import Foundation

/// Runs another program (ffmpeg) on its own thread, capturing stderr, with a time limit.
enum ExternalTool {
    struct Outcome: Sendable {
        let status: Int32
        let standardError: String
        let timedOut: Bool
    }

    /// The executable named `name` on PATH, if any.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static func run(_ executable: URL, _ arguments: [String], timeLimit: Duration) async -> Outcome {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: runBlocking(executable, arguments, timeLimit: timeLimit))
            }
            thread.start()
        }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], timeLimit: Duration) -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return Outcome(status: -1, standardError: "could not start \(executable.path): \(error)", timedOut: false)
        }
        let deadline = DispatchTime.now() + .seconds(Int(timeLimit.components.seconds))
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let timedOut = finished.wait(timeout: deadline) == .timedOut
        if timedOut { process.terminate() }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardError: text, timedOut: timedOut)
    }
}
