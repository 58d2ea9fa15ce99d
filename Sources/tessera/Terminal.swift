#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Output for people: lines on stdout or stderr, and whether stderr is a terminal.
enum Terminal {
    enum Stream { case standardOutput, standardError }

    static func line(_ text: String, to stream: Stream = .standardOutput) {
        write(text + "\n", to: stream)
    }

    static func write(_ text: String, to stream: Stream) {
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data(text.utf8))
    }

    /// One-line error: `tessera: error: <message>`.
    static func error(_ message: String) {
        line("tessera: error: \(message.replacingOccurrences(of: "\n", with: " "))", to: .standardError)
    }

    static var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }
}
