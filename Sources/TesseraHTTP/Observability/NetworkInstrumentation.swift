import TesseraSupport

/// Per-request timing and outcome, folded from a client's event stream — so it carries what
/// events carry and nothing more: URLs in event form (query values redacted, user-info gone, JWT-like
/// segments masked), never a header value or a body.
///
/// Feed it events (`observe(_:)` drains a stream; `take(_:)` takes one, for a caller that also
/// prints them). Each finished or failed request becomes a `Record`: attempts, redirects, final
/// status, bytes or error code, the whole duration, the time to the last attempt's response head
/// and that attempt's phase timings. The last `maximumRecords` are kept, and a `Summary` counts
/// every one since the start. Requests still in flight are bounded too (`maximumInFlight`): the
/// oldest beyond it is dropped and counted as `abandoned`.
///
/// ```swift
/// let instrumentation = NetworkInstrumentation()
/// Task { await instrumentation.observe(client.events) }
/// …
/// let summary = instrumentation.summary   // count, failures by code, median and p95 duration
/// ```
public final class NetworkInstrumentation: Sendable {
    /// One request's life.
    public struct Record: Sendable, Equatable {
        /// How the request ended.
        public enum Outcome: Sendable, Equatable {
            /// The body was delivered, this many bytes.
            case finished(bytes: Int64)
            /// It failed with this code.
            case failed(HTTPError.Code)
        }

        /// The client's request number.
        public let requestID: UInt64
        /// The method.
        public let method: String
        /// The URL in event form (the last hop's, after redirects).
        public let url: String
        /// Attempts made (1 + retries).
        public let attempts: Int
        /// Redirects followed.
        public let redirects: Int
        /// The last response's status, if one came.
        public let status: Int?
        /// How it ended.
        public let outcome: Outcome
        /// From the start to the end.
        public let duration: Duration
        /// From the start to the last response head.
        public let firstResponse: Duration?
        /// The last attempt's phases (DNS, connect, TLS, request, first byte).
        public let timings: TransferTimings?
    }

    /// Totals since the start.
    public struct Summary: Sendable, Equatable {
        /// Requests that ended.
        public var requests = 0
        /// Of them, failed (no response delivered: transport errors, refusals, cancellations).
        public var failures = 0
        /// Of them, delivered with a 4xx or 5xx status (the client may then have thrown
        /// `unacceptable-status`; the exchange itself finished).
        public var errorResponses = 0
        /// Failures by code.
        public var failuresByCode: [String: Int] = [:]
        /// Retries in all.
        public var retries = 0
        /// Bytes delivered in all.
        public var bytes: Int64 = 0
        /// Requests dropped from the in-flight table before they ended.
        public var abandoned = 0
        /// The median duration of the kept records.
        public var medianDuration: Duration?
        /// The 95th percentile duration of the kept records.
        public var p95Duration: Duration?
    }

    private struct Pending {
        var method: String
        var url: String
        var attempts = 1
        var redirects = 0
        var status: Int?
        var firstResponse: Duration?
        var timings: TransferTimings?
    }

    private struct State {
        var pending: [UInt64: Pending] = [:]
        var records: [Record] = []
        var next = 0
        var summary = Summary()
        /// The pending requests' IDs in the order they started (some long finished: they are
        /// skipped when met, and dropped in one sweep when they outnumber the live ones).
        var started: [UInt64] = []
        var startedHead = 0
    }

    private let state = Lock(State())
    /// Finished requests kept (the most recent).
    public let maximumRecords: Int
    /// Requests tracked while in flight.
    public let maximumInFlight: Int

    /// An empty instrumentation.
    public init(maximumRecords: Int = 1024, maximumInFlight: Int = 4096) {
        self.maximumRecords = max(1, maximumRecords)
        self.maximumInFlight = max(1, maximumInFlight)
    }

    /// Takes events until the stream ends.
    public func observe(_ events: some AsyncSequence<HTTPEvent, Never>) async {
        for await event in events { take(event) }
    }

    /// Folds one event in.
    public func take(_ event: HTTPEvent) {
        state.withLock { state in
            if state.pending[event.requestID] == nil {
                state.pending[event.requestID] = Pending(method: event.method, url: event.url)
                state.started.append(event.requestID)
                if state.pending.count > maximumInFlight { Self.evictOldest(&state) }
                if state.started.count > 2 * maximumInFlight { Self.compact(&state) }
            }
            guard var pending = state.pending[event.requestID] else { return }
            switch event.kind {
            case .start:
                break
            case .retry:
                pending.attempts += 1
                state.summary.retries += 1
            case .redirect:
                pending.redirects += 1
            case .response(let status):
                pending.status = status
                pending.firstResponse = event.elapsed
                pending.timings = event.timings
            case .finish(let bytes):
                finish(&state, event, pending, .finished(bytes: bytes))
                return
            case .failure(let code):
                finish(&state, event, pending, .failed(code))
                return
            }
            pending.url = event.url
            state.pending[event.requestID] = pending
        }
    }

    /// Forgets the request in flight the longest (amortized O(1): the start order is a queue).
    private static func evictOldest(_ state: inout State) {
        while state.startedHead < state.started.count {
            let id = state.started[state.startedHead]
            state.startedHead += 1
            if state.pending.removeValue(forKey: id) != nil {
                state.summary.abandoned += 1
                return
            }
        }
    }

    /// Drops the start-order entries of finished requests: at most twice the live ones are kept,
    /// each sweep paid for by the starts since the last.
    private static func compact(_ state: inout State) {
        let pending = state.pending
        state.started = state.started[state.startedHead...].filter { pending[$0] != nil }
        state.startedHead = 0
    }

    private func finish(_ state: inout State, _ event: HTTPEvent, _ pending: Pending, _ outcome: Record.Outcome) {
        state.pending[event.requestID] = nil
        let record = Record(requestID: event.requestID, method: pending.method, url: event.url, attempts: pending.attempts,
                            redirects: pending.redirects, status: pending.status, outcome: outcome, duration: event.elapsed,
                            firstResponse: pending.firstResponse, timings: pending.timings)
        if state.records.count < maximumRecords {
            state.records.append(record)
        } else {
            state.records[state.next] = record
        }
        state.next = (state.next + 1) % maximumRecords
        state.summary.requests += 1
        switch outcome {
        case .finished(let bytes):
            state.summary.bytes += bytes
            if let status = pending.status, status >= 400 { state.summary.errorResponses += 1 }
        case .failed(let code):
            state.summary.failures += 1
            state.summary.failuresByCode[code.rawValue, default: 0] += 1
        }
    }

    /// The kept records, oldest first.
    public var records: [Record] {
        state.withLock { state in
            guard state.records.count == maximumRecords else { return state.records }
            return Array(state.records[state.next...] + state.records[..<state.next])
        }
    }

    /// Totals since the start, with duration percentiles over the kept records.
    public var summary: Summary {
        state.withLock { state in
            var summary = state.summary
            let durations = state.records.map(\.duration).sorted()
            if !durations.isEmpty {
                summary.medianDuration = durations[(durations.count - 1) / 2]
                summary.p95Duration = durations[min(durations.count - 1, Int((Double(durations.count) * 0.95).rounded(.up)) - 1)]
            }
            return summary
        }
    }

    /// Requests in flight now.
    public var inFlight: Int { state.withLock { $0.pending.count } }
}
