import Foundation

/// Writes one line to standard output unbuffered: what a gate printed is on the output even when
/// the process then dies of a signal or leaves by `_exit` (the watchdog).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
