import Dispatch
import Foundation
import TesseraHTTP
import TesseraPlayback
import TesseraSupport

/// A loopback origin for tests: serves a directory tree through the real libmicrohttpd server and
/// injects faults per path and per attempt. Every request is logged (path, attempt, Range header).
public final class OriginSimulator: Sendable {
    /// One logged request.
    public struct LoggedRequest: Sendable, Equatable {
        /// The path asked for.
        public let path: String
        /// 1 for the first request of this path, 2 for the second…
        public let attempt: Int
        /// The Range header, if any.
        public let range: String?
    }

    private let server: LoopbackServer
    private let state: OriginState

    /// Starts serving `root` on 127.0.0.1 (random port).
    /// - Throws: `PlaybackError` when the root cannot be opened or the server cannot start.
    public init(root: URL, configuration: LoopbackServer.Configuration = OriginSimulator.defaultConfiguration) throws {
        let state = OriginState(directory: try DirectoryResponder(directory: root))
        self.state = state
        server = try LoopbackServer(configuration: configuration, responder: FaultInjectingResponder(state: state))
    }

    /// Short limits so that hangs and stalls end quickly in tests.
    public static var defaultConfiguration: LoopbackServer.Configuration {
        var configuration = LoopbackServer.Configuration()
        configuration.maximumSuspension = .seconds(20)
        configuration.sweepInterval = .milliseconds(50)
        return configuration
    }

    /// The URL of `path` (which starts with `/`).
    /// The defaults, with a connection idle for up to ten minutes kept open: for clients whose
    /// tests are about their own pacing, not the server's patience.
    public static var patientConfiguration: LoopbackServer.Configuration {
        var configuration = defaultConfiguration
        configuration.idleTimeout = .seconds(600)
        return configuration
    }

    public func url(_ path: String) -> URL { URL(string: server.baseURL.absoluteString + path)! }

    /// The server's base URL.
    public var baseURL: URL { server.baseURL }

    /// Injects `fault` on the given attempts (1-based) at `path`; other attempts are served normally.
    public func inject(_ fault: OriginFault, path: String, attempts: ClosedRange<Int> = 1...Int.max) {
        state.rules.withLock { $0[path, default: []].append((attempts, fault)) }
    }

    /// Injects `fault` on every request from now on, whatever its path (nil: back to the rules
    /// per path): an origin that goes away in the middle of a job.
    public func injectEverywhere(_ fault: OriginFault?) {
        state.everywhere.withLock { $0 = fault }
    }

    /// Every request so far, in arrival order.
    public var log: [LoggedRequest] { state.log.withLock { $0 } }

    /// How many requests `path` has had.
    public func attempts(_ path: String) -> Int { log.filter { $0.path == path }.count }

    /// Stops the server (parked requests get 503 first).
    public func shutdown() { server.shutdown() }
}

/// The simulator's shared tables.
final class OriginState: Sendable {
    let directory: DirectoryResponder
    let rules = Lock<[String: [(ClosedRange<Int>, OriginFault)]]>([:])
    /// The fault every request gets, before any rule per path.
    let everywhere = Lock<OriginFault?>(nil)
    let log = Lock<[OriginSimulator.LoggedRequest]>([])

    init(directory: DirectoryResponder) { self.directory = directory }
}
