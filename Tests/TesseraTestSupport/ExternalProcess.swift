import Foundation

/// Runs a tool the machine has (ffmpeg, ffprobe) for checks that need a real decoder.
public enum ExternalProcess {
    /// The absolute path of `name` on PATH, or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` with `arguments`; returns its exit status and what it wrote to stdout and stderr.
    public static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read stderr on another thread so a chatty tool never blocks on a full pipe.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var errorData = Data()
        let reader = Thread {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}
