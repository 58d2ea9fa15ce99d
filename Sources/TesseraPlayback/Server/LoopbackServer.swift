import CMicroHTTPD
import Dispatch
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

/// An HTTP/1.1 server on libmicrohttpd, bound to 127.0.0.1 or ::1 only, answering GET and HEAD
/// through an `HTTPResponder` (others get 405), with single byte ranges (206 / 416), zero-copy
/// file bodies, bounded connections, header sizes and timeouts, a slow-client watchdog, parked
/// requests (suspend/resume) and a graceful shutdown that answers parked requests first.
///
/// The server listens from `init` until ``shutdown()``; ``run()`` ties that to a task's lifetime.
public final class LoopbackServer: Sendable {
    /// Server settings; every bound has a safe default.
    public struct Configuration: Sendable {
        /// The loopback address to bind.
        public var address: LoopbackAddress = .ipv4
        /// The port, or 0 for one the kernel chooses.
        public var port: UInt16 = 0
        /// Concurrent connections. At the limit a new one makes room: the connection idle, or
        /// stuck sending a request head, the longest is closed (so idle and slow clients cannot
        /// starve others); at most `connectionReserve` more are accepted meanwhile, then new ones
        /// wait in the kernel backlog. Lowered to what the process's open-file limit allows,
        /// less 128. Default 2048 (players open a few).
        public var maximumConnections = 2048
        /// A connection idle this long after a request is closed. Whole seconds. Default 30 s.
        public var idleTimeout: Duration = .seconds(30)
        /// A connection that has not sent one complete request head this long after it opened
        /// (silent or trickling), or that trickles its next one this long after a request, is
        /// cut. Default 5 s.
        public var requestHeaderDeadline: Duration = .seconds(5)
        /// Per-connection memory for request and reply headers; larger heads get 431. Default 16 KiB.
        public var connectionMemoryLimit = 16 << 10
        /// Request bodies (which GET/HEAD do not have) beyond this close the connection. Default 64 KiB.
        public var maximumRequestBodyBytes = 64 << 10
        /// Longest a stalled body may hang before it is cut. Default 60 s.
        public var maximumSuspension: Duration = .seconds(60)
        /// libmicrohttpd worker threads. Default 1.
        public var threadCount = 1
        /// How often expiries and the watchdog are checked. Default 250 ms.
        public var sweepInterval: Duration = .milliseconds(250)

        /// The defaults.
        public init() {}
    }

    /// The bound port.
    public let port: UInt16
    /// The bound address.
    public let address: LoopbackAddress
    private let daemon: DaemonHandle
    private let context: ServerContext
    private let timer: SweepTimer
    private let stopped = Lock(false)

    /// Binds and starts serving.
    /// - Throws: `start-failed` when libmicrohttpd cannot start (port in use, resources).
    public init(configuration: Configuration = Configuration(), responder: any HTTPResponder) throws(PlaybackError) {
        cmhd_ignore_sigpipe()
        var configuration = configuration
        configuration.maximumConnections = min(max(1, configuration.maximumConnections), Self.connectionsTheProcessCanOpen)
        let context = ServerContext(responder: responder, configuration: configuration)
        #if os(Linux)
        let polling = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue
        #else
        let polling = MHD_USE_AUTO_INTERNAL_THREAD.rawValue
        #endif
        var flags = polling | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
        if configuration.address == .ipv6 { flags |= MHD_USE_IPv6.rawValue }
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maximumConnections + Self.connectionReserve, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT,
                           value: max(1, Int(configuration.idleTimeout.components.seconds)), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
        ]
        if configuration.threadCount > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadCount, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let cls = Unmanaged.passUnretained(context).toOpaque()
        let started: OpaquePointer? = Self.withSocketAddress(configuration.address, port: configuration.port) { address in
            cmhd_start_daemon(flags, address, serverAccessHandler, cls, serverRequestCompleted,
                              serverConnectionNotify, cls, options)
        }
        guard let started else {
            throw PlaybackError(.startFailed,
                                "Could not start the server on \(configuration.address) port \(configuration.port) (in use, or no resources).")
        }
        self.daemon = DaemonHandle(started)
        self.context = context
        self.address = configuration.address
        self.port = cmhd_bind_port(started)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tessera.server.sweep"))
        self.timer = SweepTimer(source: timer)
        Self.startSweeping(timer, context: context, interval: configuration.sweepInterval)
    }

    deinit { shutdown() }

    /// Connections accepted past `maximumConnections` while the oldest idle ones are closed.
    static let connectionReserve = 16

    /// The most connections the open-file limit leaves room for (128 kept for files and the rest).
    static var connectionsTheProcessCanOpen: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return .max }
        return max(1, Int(clamping: limit.rlim_cur) - 128 - connectionReserve)
    }

    /// `http://127.0.0.1:<port>` (or `http://[::1]:<port>`).
    public var baseURL: URL { URL(string: "http://\(address.urlHost):\(port)")! }

    /// Stops accepting, answers parked requests with 503, cuts stalled bodies, waits briefly for
    /// requests in flight (at most `grace`), then stops libmicrohttpd. Idempotent.
    public func shutdown(grace: Duration = .milliseconds(500)) {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        timer.source.cancel()
        let listen = MHD_quiesce_daemon(daemon.pointer)
        for suspension in context.suspensions.beginStopping() { suspension.expire() }
        // Woken by the last request's completion, not by polling; `grace` bounds the wait.
        let nanoseconds = Int(grace.components.seconds) * 1_000_000_000 + Int(grace.components.attoseconds / 1_000_000_000)
        _ = context.requestsInFlight.wait(timeout: .now() + .nanoseconds(max(0, nanoseconds)))
        MHD_stop_daemon(daemon.pointer)
        context.suspensions.daemonStopped()
        if listen >= 0 { close(listen) }
    }

    /// Serves until the calling task is cancelled, then shuts down.
    public func run() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(3600)) } catch { break }
        }
        shutdown()
    }

    private static func startSweeping(_ timer: any DispatchSourceTimer, context: ServerContext, interval: Duration) {
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000
            + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [context] in
            for expired in context.suspensions.expired(at: .now) { expired.expire() }
            context.watchdog.sweep()
        }
        timer.resume()
    }

    private static func withSocketAddress<R>(_ address: LoopbackAddress, port: UInt16,
                                             _ body: (UnsafePointer<sockaddr>) -> R) -> R {
        switch address {
        case .ipv4, .ipv4Loopback:
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = port.bigEndian
            sin.sin_addr.s_addr = (address.ipv4Number ?? 0x7f00_0001).bigEndian
            return withUnsafePointer(to: &sin) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .ipv6:
            var sin6 = sockaddr_in6()
            sin6.sin6_family = sa_family_t(AF_INET6)
            sin6.sin6_port = port.bigEndian
            sin6.sin6_addr = in6addr_loopback
            return withUnsafePointer(to: &sin6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }
}

/// The daemon pointer. `@unchecked Sendable`: libmicrohttpd's daemon calls used here (quiesce,
/// stop) are made once, from `shutdown`, serialised by the server's `stopped` flag.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// The sweep timer. `@unchecked Sendable`: a dispatch source is thread-safe; it is configured once
/// in `init` and only cancelled afterwards.
private struct SweepTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
}
