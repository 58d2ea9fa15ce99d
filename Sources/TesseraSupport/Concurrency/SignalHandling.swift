import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls a handler each time the process receives a signal (SIGUSR1: "take a snapshot now")
/// while some work runs: the signal's default action (ending the process) is off meanwhile,
/// and the handler runs on a dispatch source, never in the signal's own context.
public enum SignalHandling {
    /// The value of `work`; `handler` runs at each `number` received until it returns.
    public static func run<T: Sendable>(on number: Int32, _ handler: @escaping @Sendable () -> Void,
                                        during work: @Sendable () async -> T) async -> T {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        defer { source.cancel() }
        return await work()
    }
}
