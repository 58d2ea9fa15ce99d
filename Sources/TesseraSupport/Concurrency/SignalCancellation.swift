import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work as a task that SIGINT and SIGTERM cancel, so a command interrupted from the
/// keyboard or by its supervisor still cleans up (staging files, servers) and exits normally.
/// The signals are ignored while it runs (their default action would end the process at once)
/// and handled on a dispatch source.
public enum SignalCancellation {
    /// The value of `work`, which SIGINT or SIGTERM cancels.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        await run(onSignal: nil, work)
    }

    /// The value of `work`; the first SIGINT or SIGTERM calls `onSignal` (a clean stop the work
    /// finishes on its own), a second one cancels the task.
    public static func run<T: Sendable>(onSignal: (@Sendable () -> Void)?, _ work: @escaping @Sendable () async -> T) async -> T {
        let task = Task { await work() }
        let received = Lock(0)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let count = received.withLock { count -> Int in count += 1; return count }
                if let onSignal, count == 1 { onSignal() } else { task.cancel() }
            }
            source.resume()
            return source
        }
        let result = await task.value
        for source in sources { source.cancel() }
        return result
    }
}
