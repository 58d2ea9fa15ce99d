#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Output for people: lines on stdout or stderr, and whether stderr is a terminal.
enum Terminal {
    enum Stream { case standardOutput, standardError }

    static func line(_ text: String, to stream: Stream = .standardOutput) {
        write(text + "\n", to: stream)
    }

    static func write(_ text: String, to stream: Stream) {
        let bytes = Array(text.utf8)
        // Output that cannot be written (a closed pipe) has nowhere else to go.
        _ = FileDescriptorIO.writeAll(stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO, bytes)
    }

    /// One-line error: `tessera: error: <message>`.
    static func error(_ message: String) {
        line("tessera: error: \(message.replacing("\n", with: " "))", to: .standardError)
    }

    static var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `raw` to standard output without an intermediate copy.
    static func writeAll(_ raw: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < raw.count {
            #if canImport(Glibc)
            let n = Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
            #else
            let n = Darwin.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}
