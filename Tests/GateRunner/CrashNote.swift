import Foundation

/// Names the running case when the process dies of a signal: a trap, a bad access or an abort
/// in a reader prints `mutations: FAILED — crashed on <case>` from the signal
/// handler (async-signal-safe: one preallocated buffer and write(2)), then dies of the signal
/// as it would have. Swift's own backtracer must be off (SWIFT_BACKTRACE=enable=no) for the
/// handler to run.
enum CrashNote {
    private static let capacity = 1024
    // Written by the one thread that runs cases, read only by the signal handler on that thread.
    nonisolated(unsafe) private static let buffer: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        return buffer
    }()
    nonisolated(unsafe) private static var length = 0

    static func install() {
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in CrashNote.report(number) }
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)   // the second delivery takes the default action
            sigaction(signal, &action, nil)
        }
    }

    /// Records `label` as the running case.
    static func set(_ label: String) {
        var utf8 = Array(label.utf8.prefix(capacity - 1))
        utf8.withUnsafeMutableBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        length = utf8.count
    }

    private static func report(_ number: Int32) {
        let head: StaticString = "mutations: FAILED — crashed on "
        let tail: StaticString = " (a signal killed the reader)\n"
        _ = write(1, head.utf8Start, head.utf8CodeUnitCount)
        _ = write(1, buffer, length)
        _ = write(1, tail.utf8Start, tail.utf8CodeUnitCount)
        raise(number)
    }
}
