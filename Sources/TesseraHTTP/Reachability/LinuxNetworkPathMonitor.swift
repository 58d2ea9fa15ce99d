#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// The system's path on Linux: a NETLINK_ROUTE socket (RTM_NEWLINK/DELLINK, NEWADDR/DELADDR,
/// NEWROUTE/DELROUTE for IPv4 and IPv6) wakes a thread of its own, which reads the interfaces,
/// their addresses and the default routes again and reports the path when it changed. Where the
/// sandbox has no netlink, it reads them every `fallbackInterval` instead (`usesNetlink` says
/// which). Each `paths()` stream has its own thread, stopped when the stream's reader goes.
public struct LinuxNetworkPathMonitor: NetworkPathSource {
    /// How often the path is read when netlink is unavailable (and, as a safety net, at most
    /// this long between reads with it).
    public let fallbackInterval: Duration

    /// A monitor.
    public init(fallbackInterval: Duration = .seconds(5)) {
        self.fallbackInterval = fallbackInterval
    }

    /// The path as it is now.
    public static func current() -> NetworkPath { LinuxNetworkPathReader.current() }

    /// Whether this process can watch netlink (else the monitor polls).
    public static var usesNetlink: Bool {
        (try? NetlinkRouteWatch()) != nil   // the answer is whether it opens; the error says no more
    }

    public func paths() -> AsyncStream<NetworkPath> {
        let (stream, continuation) = AsyncStream<NetworkPath>.makeStream(bufferingPolicy: .bufferingNewest(8))
        // Without a wake-up pipe (descriptors exhausted) there is no thread to stop: the stream
        // says the path once and ends, which its reader sees.
        guard let stop = try? EventSignal() else {
            continuation.yield(LinuxNetworkPathReader.current())
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in stop.signal() }
        let interval = fallbackInterval
        do {
            try LoopThread.start { Self.watch(continuation, stop: stop, interval: interval) }
        } catch {
            continuation.yield(LinuxNetworkPathReader.current())
            continuation.finish()
        }
        return stream
    }

    private static func watch(_ continuation: AsyncStream<NetworkPath>.Continuation, stop: EventSignal, interval: Duration) {
        // No netlink (some sandboxes): the documented polling every `interval` takes its place.
        let netlink = try? NetlinkRouteWatch()
        var last = LinuxNetworkPathReader.current()
        continuation.yield(last)
        let milliseconds = Int32(clamping: interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        while true {
            var fds = [pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: netlink?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, max(1, milliseconds))
            if fds[0].revents != 0 { break }
            if fds[1].revents != 0 { _ = netlink?.drain() }
            let now = LinuxNetworkPathReader.current()
            if now != last {
                last = now
                continuation.yield(now)
            }
        }
        stop.close()
        continuation.finish()
    }
}
