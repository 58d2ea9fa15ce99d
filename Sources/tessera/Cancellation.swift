import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `work` as a task that SIGINT and SIGTERM cancel, so a job interrupted from the keyboard
/// still cleans up its staging files and leaves nothing at the destination.
enum Cancellation {
    static func cancellingOnSignals<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let task = Task { await work() }
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
        let result = await task.value
        for source in sources { source.cancel() }
        return result
    }
}
