#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The production `HTTPTransport`: libcurl driven by one engine thread with one multi handle.
///
/// Requests are multiplexed on that thread; `send` returns at the response head and the body
/// streams with bounded buffering (a slow reader pauses the transfer). Cancelling the calling task
/// cancels the transfer without blocking. Status codes are not errors here.
public final class CurlTransport: CancellationAwareTransport {
    /// Where requests go through a proxy.
    public enum ProxyPolicy: Sendable, Equatable {
        /// curl's environment rules (`http_proxy` lower-case only, `https_proxy`, `NO_PROXY`).
        case environment
        /// Never use a proxy, whatever the environment says.
        case none
        /// Always this proxy.
        case explicit(URL)
    }

    /// Engine-wide settings.
    public struct Configuration: Sendable {
        /// Proxy use. Default `.environment`.
        public var proxy: ProxyPolicy = .environment
        /// Concurrent connections to one host. Default 8.
        public var maximumConnectionsPerHost = 8
        /// Concurrent connections in all. Default 64.
        public var maximumConnections = 64
        /// A PEM file of certificate authorities to trust instead of the system's, or nil for the
        /// system store.
        public var certificateAuthorities: URL?
        /// Public-key pins: a pinned host's chain must present one of its SPKI SHA-256 digests,
        /// checked on every connection (each redirect hop is checked against its own host).
        public var pins = PublicKeyPins()
        /// How long a request may drive its transfer on the calling thread when nothing else is
        /// in flight, instead of handing it to the engine thread and sleeping until the answer:
        /// a small request then wakes no other thread, as with the curl CLI. The engine thread
        /// takes over once the budget is spent, the body has filled its buffer, or other work
        /// arrives. A task that prefers an executor of its own (the engine's, a WebSocket's)
        /// never drives, and at most one caller fewer than the cores drive at once in the process
        /// (none on a single core), so the cooperative pool always keeps a thread. `.zero` turns
        /// it off. Default 2 ms: the time a request may hold one of the pool's threads, blocked in
        /// poll(2).
        public var callerDriveBudget: Duration = .milliseconds(2)
        /// Who else counts against the number of callers driving at once (tests give an engine
        /// its own).
        var callerDriveLimit = CallerDriveLimit.process
        /// The defaults.
        public init() {}
    }

    private let engine: CurlEngine

    /// Starts the engine thread; time-to-first-byte deadlines run on the continuous clock.
    /// - Throws: `HTTPError` (`internal`) when libcurl cannot be initialised.
    public convenience init(configuration: Configuration = Configuration()) throws(HTTPError) {
        try self.init(configuration: configuration, clock: ContinuousClock())
    }

    /// Starts the engine thread with time-to-first-byte deadlines on `clock` (a test drives them
    /// with a manual clock; libcurl's own connect and low-speed timers stay on real time). The
    /// loop looks at the clock at least once a second.
    /// - Throws: `HTTPError` (`internal`) when libcurl cannot be initialised.
    public init<C: Clock>(configuration: Configuration = Configuration(), clock: C) throws(HTTPError) where C.Duration == Duration {
        engine = try CurlEngine(configuration: configuration, elapsed: ElapsedClock(clock).elapsed)
    }

    deinit { engine.stop() }

    /// The engine's thread as a task executor. A task that prefers it
    /// (`withTaskExecutorPreference(transport.executor) { … }`) runs between the loop's
    /// iterations: each response resumes it on the thread that received it and its next request
    /// is taken up there — a sequential request loop crosses no thread. Its code holds up every
    /// transfer while it runs: keep it short and never block in it (file writes, heavy decoding
    /// belong elsewhere). Many concurrent requests are better left on the global executor, which
    /// spreads their work over the cores. After `shutdown()` such a task runs on the global
    /// concurrent executor.
    public var executor: any TaskExecutor { engine.executor }

    /// How many requests were driven by their callers until their transfer ended or paused, and
    /// how many caller drives handed work in flight back to the engine thread (tests).
    var callerDrives: (settled: Int, handedBack: Int) { engine.callerDrives }

    /// Whether the engine thread waits with nothing in flight, so a caller may drive (tests).
    var isEngineIdle: Bool { engine.isIdle }
    /// Whether a caller drives a transfer now (tests).
    var isCallerDriving: Bool { engine.isCallerDriving }

    /// Ends every transfer in flight (they fail with `transport-shut-down`) and stops the thread.
    public func shutdown() { engine.stop() }

    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        try await send(request, cancellation: nil)
    }

    /// `send(_:)`, whose transfer `cancellation` also cancels (the pipeline's direct path).
    func send(_ request: HTTPRequest, cancellation: RequestCancellation?) async throws(HTTPError) -> HTTPResponse {
        let transfer = try CurlTransfer(request: request, engine: engine)
        let cancel: @Sendable () -> Void = {
            CurlBodySource.requestCancel(transfer, reason: HTTPError(
                .cancelled, code: .cancelled, "The request for \(transfer.redactedURL) was cancelled."))
        }
        cancellation?.onCancel(cancel)
        let result = await withTaskCancellationHandler {
            let added = Self.mayDrive && engine.driveInline(transfer)
            return await withCheckedContinuation { (continuation: CurlTransferShared.HeadContinuation) in
                let ready = transfer.shared.withLock { state -> Result<HTTPResponseHead, HTTPError>? in
                    if let result = state.headResult { return result }
                    state.headContinuation = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                } else if !added {
                    engine.submit(.add(transfer))
                }
            }
        } onCancel: {
            cancel()
        }
        let head = try result.get()
        return HTTPResponse(head: head, body: HTTPBody(source: CurlBodySource(transfer: transfer)))
    }

    /// Whether the current task may drive a transfer on its thread: not when it prefers an
    /// executor (a loop thread it would hold up).
    private static var mayDrive: Bool {
        withUnsafeCurrentTask { task in task?.unownedTaskExecutor == nil }
    }
}
